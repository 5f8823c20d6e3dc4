-- POST a new memory (~200 bytes of content, unique per request) to the store in the path wrk is given, in one of
-- ten banks: what saving a typed memory costs, to set beside an entry write of the same size.
local filler = string.rep("x", 180)
local counter = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
dofile("bench/wrk/headers.lua")

function setup(thread)
  thread:set("id", tostring(math.random(1, 1e9)))
end

function request()
  counter = counter + 1
  local body = '{"bank":{"type":"user","id":"u' .. (counter % 10) .. '"},"type":"fact","importance":0.6,'
    .. '"tags":["bench"],"content":"' .. filler .. " " .. (id or "") .. "-" .. counter .. '"}'
  return wrk.format("POST", wrk.path, nil, body)
end

dofile("bench/wrk/report.lua")
