-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: loop_pairs_metamethod\.lua:12: instruction budget of 1000000 exceeded
-- __pairs that calls pairs() again: the sandbox's own pairs() honours
-- __pairs with a tail call, so this loops (rather than overflowing the
-- stack) until the instruction budget.  The position is the scenario's
-- line that called pairs() (before issue 28 it was the line of the
-- sandbox's own pairs(), "prelude:N", where most of the instructions run).
scenario{ name = "loop_pairs_metamethod" }
local t = setmetatable({}, {})
getmetatable(t).__pairs = function(tt) return pairs(tt) end
for k in pairs(t) do end
