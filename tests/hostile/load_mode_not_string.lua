-- expect-exit: 2
-- expect-stderr: load_mode_not_string\.lua:5: bad argument #3 to 'load' \(string expected, got table\)
-- A mode that is not a string.
scenario{ name = "load_mode_not_string" }
local f = load("return 1", "x", {})
