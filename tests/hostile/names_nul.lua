-- expect-exit: 2
-- expect-stderr: names_nul\.lua:5: counter\{\}: 'name' is not valid UTF-8 text
-- A NUL byte inside a name (C would see "a" only).
scenario{ name = "names_nul" }
local c = counter{ name = "a\0b" }
