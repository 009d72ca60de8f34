-- expect-exit: 2
-- expect-stderr: numbers_lock_count_negative\.lua:5: lock\{\}: 'count' must be between 0 and 1000000, got -1
-- A negative semaphore count.
scenario{ name = "numbers_lock_count_negative" }
local l = lock{ name = "l", count = -1 }
