-- expect-exit: 2
-- expect-stderr: error_table_toplevel\.lua:9: error raised with a table value instead of a message
-- FIXED (was pending): -- NO POSITION (engine bug): the message is only "error raised with a table
-- value instead of a message", without the file.  At the top level (and
-- in check()) the error object is examined after lua_pcall has unwound
-- the stack, so km_sandbox_errmsg finds no frame.  Fix: lua_pcall with a
-- message handler that records luaL_where() for non-string errors.
scenario{ name = "error_table_toplevel" }
error({ code = 1 })
