-- expect-exit: 2
-- expect-stderr: error_nil_toplevel\.lua:5: error raised with a nil value instead of a message
-- As error_table_toplevel.lua, with error(nil).
scenario{ name = "error_nil_toplevel" }
error(nil)
