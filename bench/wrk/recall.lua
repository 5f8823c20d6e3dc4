-- POST a recall search of WRK_BANK for "bravo hotel" and a number that changes with each request, so that every
-- query is new: its vector is made by the embedding model each time, not taken from the cache of recent queries.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local bank = os.getenv("WRK_BANK") or "user:bench"
local threads = 0
setup = function(thread)
  threads = threads + 1
  thread:set("first", threads * 10000000)
end
local n = 0
request = function()
  if n == 0 then n = first or 0 end
  n = n + 1
  local body = string.format('{"query": "bravo hotel %d", "top_k": 10, "banks": ["%s"]}', n, bank)
  return wrk.format(nil, nil, nil, body)
end
dofile("bench/wrk/headers.lua")
dofile("bench/wrk/report.lua")
