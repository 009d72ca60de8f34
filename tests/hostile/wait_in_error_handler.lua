-- expect-exit: 2
-- expect-stderr: wait_in_error_handler\.lua:13: error in error handling
-- An xpcall message handler that tries to wait.  Lua calls the handler
-- from C, so down() is refused inside it; that error calls the handler
-- again, and so on until Lua gives up with "error in error handling"
-- (LUA_ERRERR), which xpcall returns.  The task then raises it.  Exit 2,
-- nothing waits, nothing hangs.
scenario{ name = "wait_in_error_handler" }
local l = lock{ name = "l" }
task{ name = "t", run = function()
  local ok, e = xpcall(function() error("boom") end, function(m) down(l) return m end)
  assert(not ok)
  error(e)
end }
