-- expect-exit: 2
-- args: --max-wall 0.5
-- expect-stderr: loop_collectgarbage\.lua:11: wall-clock budget of 0\.5 s exceeded
-- A full collection over 20,000 live tables costs milliseconds of C and
-- only a few Lua instructions: the instruction budget would take hours to
-- run out.  The wall-clock budget (default 120 s, here 0.5 s) is what ends
-- it, checked from the same hook.
scenario{ name = "loop_collectgarbage" }
local keep = {}
for i = 1, 20000 do keep[i] = { i } end
while true do collectgarbage() end
