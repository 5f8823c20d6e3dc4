-- PUT a new entry (a name never written before, ~200 bytes) into store WRK_STORE, in a random one of its WRK_SCOPES
-- scopes s-00000..: what a write that creates costs as the store grows. Set by the environment: WRK_STORE,
-- WRK_SCOPES.
local store = os.getenv("WRK_STORE") or "scale-small"
local scopes = tonumber(os.getenv("WRK_SCOPES") or "200")
local filler = string.rep("x", 180)
local counter = 0
wrk.method = "PUT"
wrk.headers["Content-Type"] = "application/json"
dofile("bench/wrk/headers.lua")

function setup(thread)
  thread:set("id", tostring(math.random(1, 1e9)))
end

function request()
  counter = counter + 1
  local path = string.format("/v1/stores/%s/scopes/s-%05d/entries/new-%s-%d", store, math.random(0, scopes - 1),
    id or "", counter)
  local body = '{"content":"' .. filler .. " " .. (id or "") .. "-" .. counter .. '\\n"}'
  return wrk.format("PUT", path, nil, body)
end

dofile("bench/wrk/report.lua")
