-- expect-exit: 2
-- args: --era 2023 --cpus 1 --max-instructions 200000
-- expect-stderr: runahead_instr_budget\.lua:1[0-9]: instruction budget of 200000 exceeded
-- The instruction budget is met inside a loop of operations that never
-- yield (run-ahead): the same line, the same instant.
scenario{ name = "runahead_instr_budget" }
local v = var{ name = "v" }
task{ name = "t", run = function()
  local x = 0
  while true do
    compute(1)
    x = x + read(v)
    add(v, 1)
  end
end }
