-- expect-exit: 2
-- expect-stderr: var_line_table\.lua:5: var\{\}: 'line' must be a string, got table
-- A line given as a table.
scenario{ name = "var_line_table" }
var{ name = "v", line = {} }
