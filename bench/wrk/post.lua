-- POST the JSON body in WRK_BODY to the path wrk is given, with the MCP session in WRK_MCP_SESSION when set (and
-- the Accept header the MCP transport asks for); reports as report.lua says.
wrk.method = "POST"
wrk.body = os.getenv("WRK_BODY")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
local session = os.getenv("WRK_MCP_SESSION")
if session and session ~= "" then
  wrk.headers["Mcp-Session-Id"] = session
end
dofile("bench/wrk/headers.lua")
dofile("bench/wrk/report.lua")
