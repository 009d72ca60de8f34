-- expect-exit: 1
-- args: --era 2009 --cpus 1 --report json
-- expect-stdout: "kind": "irq-unsafe"
-- "inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage"), whether or not the
scenario{ name = "irq_unsafe" }
local l = lock{ name = "dev_lock", kind = "spinlock" }
irq{ name = "dev", every = ms(1), handler = function() down(l); compute(us(1)); up(l) end }
task{ name = "t", run = function()
  down(l); compute(us(5)); up(l)      -- irqs enabled: unsafe against 'dev'
  compute(ms(2))                      -- the interrupt arrives here, lock free
end }
