-- expect-exit: 2
-- expect-stderr: error_table_check\.lua:6: error raised with a table value instead of a message
-- FIXED (was pending): -- NO POSITION (engine bug): a table raised in a check() names neither file nor line.
scenario{ name = "error_table_check" }
check(function(report)
  error({ "not a message" })
end)
