-- Headers every request carries: the console's session cookie from WRK_COOKIE when one is set (a browser's request,
-- no Authorization), else the bearer token from WRK_TOKEN when one is set.
local cookie = os.getenv("WRK_COOKIE")
local token = os.getenv("WRK_TOKEN")
if cookie and cookie ~= "" then
  wrk.headers["Cookie"] = cookie
elseif token and token ~= "" then
  wrk.headers["Authorization"] = "Bearer " .. token
end
