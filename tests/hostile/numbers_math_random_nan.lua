-- expect-exit: 2
-- expect-stderr: numbers_math_random_nan\.lua:5: bad argument #1 to 'random' \(number has no integer representation\)
-- math.random(0/0).
scenario{ name = "numbers_math_random_nan" }
local r = math.random(0/0)
