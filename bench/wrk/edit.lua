-- One client per wrk thread (run with as many threads as connections), each editing a file of its own of ~4 KB in
-- store WRK_STORE: its first request creates the file, every later one replaces the marker its previous edit left
-- ("v=<n-1>;" by "v=<n>;"), so every edit finds what it replaces. WRK_MODE=tool sends the memory tool's create and
-- str_replace (POST .../memory-tool); WRK_MODE=entry sends the same as an entry's PUT and PATCH. A memory tool
-- answer with is_error counts as an error, as a refused PATCH does.
local mode = os.getenv("WRK_MODE") or "tool"
local store = os.getenv("WRK_STORE") or "edit-1"
local filler = string.rep("The quick brown fox jumps over the lazy dog, line after line. ", 63)
local n = 0
local errors = 0
local threads = {}
wrk.headers["Content-Type"] = "application/json"
dofile("bench/wrk/headers.lua")

function setup(thread)
  thread:set("id", tostring(math.random(1, 1e9)))
  table.insert(threads, thread)
end

function request()
  local name = "f-" .. id
  local body, method, path
  if mode == "tool" then
    method, path = "POST", "/v1/stores/" .. store .. "/memory-tool"
    if n == 0 then
      body = '{"command":"create","path":"/memories/' .. name .. '.md","file_text":"v=0;\\n' .. filler .. '"}'
    else
      body = '{"command":"str_replace","path":"/memories/' .. name .. '.md","old_str":"v=' .. (n - 1)
        .. ';","new_str":"v=' .. n .. ';"}'
    end
  else
    path = "/v1/stores/" .. store .. "/scopes/notes/entries/" .. name
    if n == 0 then
      method, body = "PUT", '{"content":"v=0;\\n' .. filler .. '"}'
    else
      method, body = "PATCH", '{"old_text":"v=' .. (n - 1) .. ';","new_text":"v=' .. n .. ';"}'
    end
  end
  n = n + 1
  return wrk.format(method, path, nil, body)
end

function response(status, headers, body)
  if status >= 300 or string.find(body, '"is_error":true', 1, true) then
    errors = errors + 1
  end
end

dofile("bench/wrk/report.lua")

-- report.lua's line, with the edits that failed (a tool error, a refused PATCH) as its errors.
function done(summary, latency, requests)
  local failed = 0
  for _, t in ipairs(threads) do
    failed = failed + (t:get("errors") or 0)
  end
  io.write(string.format("tps=%.1f p50_ms=%.3f p99_ms=%.3f ok=%d errors=%d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.requests, failed + summary.errors.connect + summary.errors.read + summary.errors.write
      + summary.errors.timeout))
end
