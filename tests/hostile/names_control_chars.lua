-- expect-exit: 2
-- expect-stderr: names_control_chars\.lua:6: lock\{\}: 'name' must not contain control characters
-- A lock name holding ESC [2J: printed as it was by the text report and
-- the window, it cleared the terminal.  FIXED: refused where it enters.
scenario{ name = "names_control_chars" }
local l = lock{ name = "a\27[2Jb" }
