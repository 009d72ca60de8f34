-- expect-exit: 2
-- expect-stderr: names_empty\.lua:5: lock\{\}: 'name' must be 1 to 128 bytes long, got 0
-- An empty name.
scenario{ name = "names_empty" }
local l = lock{ name = "" }
