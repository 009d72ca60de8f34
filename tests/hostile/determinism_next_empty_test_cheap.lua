-- expect-exit: 0
-- The deterministic next() sorted the whole table on every call with a
-- nil key, so `next(t) == nil` on a table of 1,000 keys cost a sort:
-- 2,000 such tests ran out of the default instruction budget (at
-- "prelude:6"). FIXED (issue 28): next(t, nil) finds the first key in
-- one pass; the order is the same.
scenario{ name = "determinism_next_empty_test_cheap", duration = us(10) }
local t = {}
for i = 1, 1000 do t["k" .. i] = i end
t[5] = true
t[false] = 1
local empty = 0
for i = 1, 2000 do
	if next(t) == nil then empty = empty + 1 end
end
assert(empty == 0 and next(t) == 5, "the first key is the lowest number")
t[5] = nil
assert(next(t) == "k1", "then the lowest string")
local seen = {}
for k in pairs(t) do seen[#seen + 1] = tostring(k) end
assert(seen[1] == "k1" and seen[2] == "k10" and seen[#seen] == "false", table.concat(seen, " ", 1, 3))
local l = lock{ name = "l" }
task{ name = "w", run = function() down(l); up(l) end }
