-- expect-exit: 2
-- expect-stderr: numbers_math_random_empty\.lua:5: bad argument #2 to 'random' \(interval is empty\)
-- math.random(maxinteger, mininteger).
scenario{ name = "numbers_math_random_empty" }
local r = math.random(math.maxinteger, math.mininteger)
