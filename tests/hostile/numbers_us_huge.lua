-- expect-exit: 2
-- expect-stderr: numbers_us_huge\.lua:5: us\(inf\): not a duration
-- us(math.huge).
scenario{ name = "numbers_us_huge" }
local d = us(math.huge)
