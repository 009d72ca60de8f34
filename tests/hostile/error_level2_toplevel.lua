-- expect-exit: 2
-- expect-stderr: error_level2_toplevel\.lua:6: blame the caller
-- error(msg, 2) names the caller's line.
scenario{ name = "error_level2_toplevel" }
local function f() error("blame the caller", 2) end
f()
