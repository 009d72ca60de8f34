-- expect-exit: 2
-- expect-stderr: error_table_check\.lua:6: error raised with a table value instead of a message
-- A table raised in a check(): the message names the file and line.
scenario{ name = "error_table_check" }
check(function(report)
  error({ "not a message" })
end)
