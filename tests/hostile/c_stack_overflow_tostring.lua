-- expect-exit: 2
-- expect-stderr: c_stack_overflow_tostring\.lua:[0-9]+: .*C stack overflow
-- A __tostring that calls tostring() on itself: the C stack overflow
-- names the file and line.
scenario{ name = "c_stack_overflow_tostring" }
local mt = {}
mt.__tostring = function(t) return tostring(t) end
local s = tostring(setmetatable({}, mt))
