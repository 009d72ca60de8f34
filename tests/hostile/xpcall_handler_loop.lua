-- expect-exit: 2
-- args: --max-instructions 1000000 --max-wall 2
-- expect-stderr: xpcall_handler_loop\.lua:[0-9]+: (instruction|wall-clock) budget
-- An xpcall message handler that loops.  Lua calls the handler of an
-- error raised by the budget hook inside the hook, where hooks are off
-- (ldebug.c, luaG_errormsg): the budget must still end the run.
scenario{ name = "xpcall_handler_loop" }
xpcall(function() error("x") end, function(m) while true do end end)
