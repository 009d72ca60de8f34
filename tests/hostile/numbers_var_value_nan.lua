-- expect-exit: 2
-- expect-stderr: numbers_var_value_nan\.lua:5: var\{\}: 'value' must be an integer, got -?nan
-- A variable whose value is NaN.
scenario{ name = "numbers_var_value_nan" }
local v = var{ name = "v", value = 0/0 }
