-- expect-exit: 2
-- expect-stderr: numbers_atomic_value_huge\.lua:5: atomic\{\}: 'value' must be an integer, got inf
-- An atomic of infinite value.
scenario{ name = "numbers_atomic_value_huge" }
local a = atomic{ name = "a", value = math.huge }
