-- GET the path wrk is given; reports as report.lua says.
dofile("bench/wrk/headers.lua")
dofile("bench/wrk/report.lua")
