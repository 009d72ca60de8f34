-- expect-exit: 2
-- expect-stderr: error_table_toplevel\.lua:6: error raised with a table value instead of a message
-- A table raised at the top level: the message names the file and line
-- (a message handler records them before the stack unwinds).
scenario{ name = "error_table_toplevel" }
error({ code = 1 })
