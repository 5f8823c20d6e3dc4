-- PUT an entry into a random one of STORES stores named PREFIX-<n>, 50 names each, content ~200 bytes unique per
-- request. Set by the environment: WRK_STORES, WRK_PREFIX.
local stores = tonumber(os.getenv("WRK_STORES") or "100")
local prefix = os.getenv("WRK_PREFIX") or "wb"
local filler = string.rep("x", 180)
local counter = 0
wrk.method = "PUT"
wrk.headers["Content-Type"] = "application/json"

function setup(thread)
  thread:set("id", tostring(math.random(1, 1e9)))
end

function request()
  counter = counter + 1
  local path = "/v1/stores/" .. prefix .. "-" .. math.random(0, stores - 1) .. "/scopes/notes/entries/n-" .. math.random(0, 49)
  local body = '{"content":"' .. filler .. " " .. (id or "") .. "-" .. counter .. '\\n"}'
  return wrk.format("PUT", path, nil, body)
end

function done(summary, latency, requests)
  io.write(string.format("tps=%.1f p50_ms=%.3f p99_ms=%.3f ok=%d errors=%d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.requests, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write
      + summary.errors.timeout))
end
