-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: loop_pairs_metamethod\.lua: prelude:[0-9]+: instruction budget of 1000000 exceeded
-- __pairs that calls pairs() again: the sandbox's own pairs() honours
-- __pairs with a tail call, so this loops (rather than overflowing the
-- stack) until the instruction budget.  The position is the line of the
-- sandbox's pairs() (the chunk "prelude"), where most of the loop's
-- instructions run, after the scenario's file.
scenario{ name = "loop_pairs_metamethod" }
local t = setmetatable({}, {})
getmetatable(t).__pairs = function(tt) return pairs(tt) end
for k in pairs(t) do end
