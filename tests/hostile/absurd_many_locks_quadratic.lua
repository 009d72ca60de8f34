-- expect-exit: 0
-- args: --max-wall 20
-- max-seconds: 21
-- expect-stdout: outcome: completed
-- 60,000 locks: declaring them (names are checked unique) and building
-- the run stay well inside the wall-clock budget, which also watches
-- instantiation.
scenario{ name = "absurd_many_locks_quadratic" }
for i = 1, 60000 do lock{ name = "l" .. i } end
