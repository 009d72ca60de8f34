-- expect-exit: 2
-- args: --max-memory 16M
-- expect-stderr: memory_irq_handler\.lua:9: memory budget of 16777216 bytes exceeded
-- Every interrupt adds 100,000 tables to an upvalue that outlives it.
scenario{ name = "memory_irq_handler" }
local keep = {}
task{ name = "t", run = function() compute(ms(10)) end }
irq{ name = "i", every = us(100), handler = function()
  for i = 1, 1e5 do keep[#keep + 1] = { i } end
end }
