-- expect-exit: 2
-- args: --max-instructions 1000
-- expect-stderr: absurd_tiny_instruction_budget\.lua:[0-9]+: instruction budget of 1000 exceeded
-- The smallest instruction budget (1000) ends a short loop at once.
scenario{ name = "absurd_tiny_instruction_budget" }
local n = 0
for i = 1, 10000 do n = n + i end
