-- expect-exit: 2
-- expect-stderr: var_line_long\.lua:5: var\{\}: 'line' must name a cache line in 1 to 63 printable characters
-- A line name of a megabyte.
scenario{ name = "var_line_long" }
var{ name = "v", line = string.rep("l", 1 << 20) }
