-- expect-exit: 2
-- expect-stderr: bad_lock_field\.lua:5: .*countt
-- A misspelt field in lock{} is an error, not silently ignored.
scenario{ name = "bad_lock_field" }
local l = lock{ name = "l", countt = 2 }
