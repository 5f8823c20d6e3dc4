-- POST one step (~250 bytes: a thought, a tool call, an observation unique per request) to a random one of the 16
-- contexts ctx-append/run-0..15, which hold 500 steps and more: what appending to a long context costs, to set
-- beside an entry write of the same size.
local filler = string.rep("x", 120)
local counter = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
dofile("bench/wrk/headers.lua")

function setup(thread)
  thread:set("id", tostring(math.random(1, 1e9)))
end

function request()
  counter = counter + 1
  local path = "/v1/stores/ctx-append/contexts/run-" .. math.random(0, 15) .. "/steps"
  local body = '{"steps":[{"thought":"Check the next file.","action":{"id":"b-' .. (id or "") .. "-" .. counter
    .. '","name":"read_file","input":{"path":"src/F.java"}},"observation":"' .. filler .. " " .. (id or "") .. "-"
    .. counter .. '"}]}'
  return wrk.format("POST", path, nil, body)
end

dofile("bench/wrk/report.lua")
