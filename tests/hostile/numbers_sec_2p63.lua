-- expect-exit: 2
-- expect-stderr: numbers_sec_2p63\.lua:5: sec\(9\.2233720368548e\+18\): not a duration
-- sec(2^63): finite, but past 146 years once in nanoseconds.
scenario{ name = "numbers_sec_2p63" }
local d = sec(2^63)
