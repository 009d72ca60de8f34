-- expect-exit: 2
-- args: --max-instructions 100000
-- expect-stderr: budget_inside_next_names_line\.lua:12: instruction budget of 100000 exceeded
-- An instruction budget spent inside the sandbox's next() (a sort of
-- many keys) named "prelude:N", the sandbox's own chunk, not the line
-- of the scenario that called it. FIXED (issue 28): the sandbox's frames
-- are passed over.
scenario{ name = "budget_inside_next_names_line" }
local t = {}
for i = 1, 20000 do t["k" .. i] = i end
local n = 0
for k, v in pairs(t) do n = n + v end
