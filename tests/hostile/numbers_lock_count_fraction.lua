-- expect-exit: 2
-- expect-stderr: numbers_lock_count_fraction\.lua:5: lock\{\}: 'count' must be an integer, got 0\.5
-- Half a unit.
scenario{ name = "numbers_lock_count_fraction" }
local l = lock{ name = "l", count = 0.5 }
