-- expect-exit: 2
-- expect-stderr: load_mode_bt_binary\.lua:8: attempt to load a binary chunk \(mode is 't'\)
-- Asking for mode "bt" does not open the door: the sandbox's load() always
-- passes "t" to Lua, so a hand-made "\27Lua" chunk comes back as an error.
scenario{ name = "load_mode_bt_binary" }
local chunk = "\27Lua\84\0\25\147\13\10\26\10\4\8\8\120\86\0\0\0\0\0\0\0\0\0\0\0\40\119\64"
local f, err = load(chunk, "x", "bt")
assert(f, err)
