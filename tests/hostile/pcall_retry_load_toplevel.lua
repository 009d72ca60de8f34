-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: pcall_retry_load_toplevel\.lua:[0-9]+: load:1: instruction budget of 1000000 exceeded
-- At the top level: catch the budget error, then retry through a freshly
-- load()ed chunk (a new function, a new call frame) -- still refused.
scenario{ name = "pcall_retry_load_toplevel" }
local caught = 0
for _ = 1, 1e9 do
  local f = load("while true do end")
  local ok = pcall(f)
  if not ok then caught = caught + 1 end
end
