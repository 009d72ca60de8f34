-- expect-exit: 2
-- expect-stderr: numbers_param_default_table\.lua:5: bad argument #2 to 'param' \(default must be a number, string or boolean\)
-- param() with a default that is not a number, string or boolean.
scenario{ name = "numbers_param_default_table" }
local p = param("p", {})
