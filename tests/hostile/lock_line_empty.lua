-- expect-exit: 2
-- expect-stderr: lock_line_empty\.lua:5: lock\{\}: 'line' must name a cache line in 1 to 63 printable characters
-- A lock embedded in a line with no name.
scenario{ name = "lock_line_empty" }
lock{ name = "l", kind = "spinlock", line = "" }
