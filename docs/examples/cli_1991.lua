-- cli_1991.lua: Linux 0.01 on one CPU. A task and a timer interrupt both
-- update a shared counter; cli()/sti() around the task's read-modify-write
-- is what keeps the interrupt out.  Try --set protect=false.
scenario{
  name = "cli_1991",
  title = "cli()/sti() keeps a timer interrupt out of a counter update",
  era = "1991",
}

local protect = param("protect", true)
local rounds  = param("rounds", 50)

local ticks = var{ name = "ticks" }
local guard = lock{ name = "ticks_guard", kind = "cli" }

task{ name = "worker", run = function()
  for i = 1, rounds do
    if protect then down(guard) end      -- cli()
    local t = read(ticks)
    compute(us(30))                      -- the interrupt may fire here
    write(ticks, t + 1)
    if protect then up(guard) end        -- sti(): a latched interrupt runs now
    compute(us(70))
  end
end }

irq{ name = "timer", cpu = 0, every = us(250), jitter = us(40),
     handler = function()
  add(ticks, 1)                          -- ticks++ in the handler
end }

check(function(r)
  local want = rounds + r.irqs[1].fired - r.irqs[1].coalesced
  return r.vars.ticks == want,
         string.format("ticks = %d, expected %d", r.vars.ticks, want)
end)
