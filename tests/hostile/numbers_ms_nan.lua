-- expect-exit: 2
-- expect-stderr: numbers_ms_nan\.lua:5: ms\(-?nan\): not a duration
-- ms(0/0).
scenario{ name = "numbers_ms_nan" }
local d = ms(0/0)
