-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: pcall_retry_xpcall_task\.lua:[0-9]+: instruction budget of 1000000 exceeded
-- A task that catches the budget error with xpcall (its handler returns at
-- once), reads the message, and starts over: once exceeded, the budget
-- raises at every instruction, so the retry fails too and the run ends.
scenario{ name = "pcall_retry_xpcall_task" }
task{ name = "t", run = function()
  local tries = 0
  while true do
    local ok, msg = xpcall(function() while true do end end, function(m) return m end)
    if not ok and tostring(msg):find("budget") then tries = tries + 1 end
    compute(us(1))
  end
end }
