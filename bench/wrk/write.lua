-- PUT an entry into a random one of STORES stores named PREFIX-<n>, 50 names each, content ~200 bytes unique per
-- request. Set by the environment: WRK_STORES, WRK_PREFIX.
local stores = tonumber(os.getenv("WRK_STORES") or "100")
local prefix = os.getenv("WRK_PREFIX") or "wb"
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
  local path = "/v1/stores/" .. prefix .. "-" .. math.random(0, stores - 1) .. "/scopes/notes/entries/n-" .. math.random(0, 49)
  local body = '{"content":"' .. filler .. " " .. (id or "") .. "-" .. counter .. '\\n"}'
  return wrk.format("PUT", path, nil, body)
end

dofile("bench/wrk/report.lua")
