-- Headers every request carries: the bearer token from WRK_TOKEN when one is set.
local token = os.getenv("WRK_TOKEN")
if token and token ~= "" then
  wrk.headers["Authorization"] = "Bearer " .. token
end
