-- expect-exit: 1
-- args: --era 2009 --cpus 1 --report json
-- expect-stdout: "kind": "irq-unsafe"
-- PENDING (engine): a spinlock taken in an interrupt handler and, elsewhere,
-- with interrupts enabled is the contract's `irq-unsafe` violation (lockdep's
-- "inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage"), whether or not the
-- interrupt happens to arrive while the lock is held.  Here it does not (the
-- run completes), and the engine records nothing.
scenario{ name = "irq_unsafe" }
local l = lock{ name = "dev_lock", kind = "spinlock" }
irq{ name = "dev", every = ms(1), handler = function() down(l); compute(us(1)); up(l) end }
task{ name = "t", run = function()
  down(l); compute(us(5)); up(l)      -- irqs enabled: unsafe against 'dev'
  compute(ms(2))                      -- the interrupt arrives here, lock free
end }
