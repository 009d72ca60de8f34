-- expect-exit: 2
-- expect-stderr: absurd_param_name_long\.lua:8: bad argument #1 to 'param' \(a name of 1 to 128 bytes of UTF-8\)
-- Two parameter names equal in their first 128 bytes were stored as one
-- name cut short, and the streamed JSON report printed that key twice.
-- Names longer than the report can hold are refused.
scenario{ name = "absurd_param_name_long" }
local p = string.rep("p", 128)
local a = param(p .. "A", 1)
task{ name = "t", run = function() compute(10) end }
