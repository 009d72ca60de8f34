-- expect-exit: 2
-- expect-stderr: numbers_lock_count_2p63\.lua:5: lock\{\}: 'count' must be an integer, got 9\.2233720368548e\+18
-- A semaphore count of 2^63.
scenario{ name = "numbers_lock_count_2p63" }
local l = lock{ name = "l", count = 2^63 }
