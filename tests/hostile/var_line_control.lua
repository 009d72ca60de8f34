-- expect-exit: 2
-- expect-stderr: var_line_control\.lua:5: atomic\{\}: 'line' must not contain control characters
-- A line whose name would steer the terminal that prints it.
scenario{ name = "var_line_control" }
atomic{ name = "a", line = "x\27[2J" }
