-- expect-exit: 2
-- args: --max-instructions 1000000 --max-wall 2
-- expect-stderr: xpcall_handler_loop\.lua:[0-9]+: (instruction|wall-clock) budget
-- FIXED (was pending): -- HANG (engine bug), immune to SIGTERM and SIGINT.  An xpcall message
-- handler that loops.  When the budget hook raises its error, Lua calls
-- the message handler right there, inside the hook (ldebug.c,
-- luaG_errormsg), where hooks are off (allowhook = 0): the handler's loop
-- is never interrupted.  Even a plain error("x") gets there: the handler
-- runs normally until the hook fires, then the hook's error calls the
-- handler again, now hook-less.
-- Fix: wrap xpcall so that the handler is a C function that returns the
-- message unchanged once the sandbox is fatal, calling the scenario's
-- handler only otherwise; and a watchdog outside Lua.
scenario{ name = "xpcall_handler_loop" }
xpcall(function() error("x") end, function(m) while true do end end)
