-- expect-exit: 2
-- expect-stderr: var_line_empty\.lua:5: var\{\}: 'line' must name a cache line in 1 to 63 printable characters
-- A line with no name.
scenario{ name = "var_line_empty" }
var{ name = "v", line = "" }
