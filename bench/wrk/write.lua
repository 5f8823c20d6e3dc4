-- PUT an entry of ~200 bytes, content unique per request. Set by the environment:
--   WRK_STORES, WRK_PREFIX: into a random one of STORES stores named PREFIX-<n>, 50 names each (the default);
--   WRK_MODE=create, WRK_STORE, WRK_SCOPES: a new entry (a name never written before) into store WRK_STORE, in a
--   random one of WRK_SCOPES scopes c-00000.. (the scale workload: what a create costs as a store grows). Not the
--   seeded scopes s-00000..: those keep their 50 entries for the reads and the render measured after the creates
--   (the small store's 20 scopes would otherwise grow by hundreds of entries a round, the large store's by one).
local create = os.getenv("WRK_MODE") == "create"
local stores = tonumber(os.getenv("WRK_STORES") or "100")
local prefix = os.getenv("WRK_PREFIX") or "wb"
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
  local path
  if create then
    path = string.format("/v1/stores/%s/scopes/c-%05d/entries/new-%s-%d", store, math.random(0, scopes - 1),
      id or "", counter)
  else
    path = "/v1/stores/" .. prefix .. "-" .. math.random(0, stores - 1) .. "/scopes/notes/entries/n-"
      .. math.random(0, 49)
  end
  local body = '{"content":"' .. filler .. " " .. (id or "") .. "-" .. counter .. '\\n"}'
  return wrk.format("PUT", path, nil, body)
end

dofile("bench/wrk/report.lua")
