-- expect-exit: 2
-- expect-stderr: recursion_concat_metamethod\.lua:[0-9]+: C stack overflow
-- __concat that concatenates its own operand again.
scenario{ name = "recursion_concat_metamethod" }
local mt = {}
mt.__concat = function(a, b) return a .. b end
local v = setmetatable({}, mt) .. "x"
