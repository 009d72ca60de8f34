-- Challenge 4 -- console_sem as a mutex: unlock it from an interrupt (2.6.16).
--
-- GOAL: make an interrupt handler release the console lock.  Time the
-- network card's interrupt so that its printk() wins the trylock of
-- console_sem, prints, and unlocks it -- in interrupt context, which a
-- mutex forbids (a `mutex-unlock-in-irq` violation; the goal check fails).
--
-- printk() may be called from anywhere, an interrupt handler included, so
-- it never sleeps for the console: it appends its message to the log
-- buffer and only *tries* to take console_sem.  Whoever wins prints every
-- pending message and then releases the lock -- from interrupt context,
-- if an interrupt handler won.  When mutexes arrived in 2.6.16, that is
-- why console_sem could not simply become one: mutex_unlock() must be
-- called by the owner, in process context.  It stayed a semaphore (still
-- one in 2023), whose up() is legal anywhere.  This challenge converts it
-- anyway (--set converted=false puts the semaphore back: then the same
-- timing is legal and the run is clean).
--
-- The timing is fixed: the interrupt fires once at `irq_at` (ns).  By
-- default the task on CPU 0 holds the console then, the handler's trylock
-- fails, and the task prints the handler's message for it.
-- Solution:  --set irq_at=30000
scenario{
  name = "challenge_console_mutex",
  title = "Challenge: make an interrupt unlock console_sem turned mutex (2.6.16)",
  description = "Goal: time the interrupt so that its printk() wins console_sem and releases it from interrupt context.",
  era = "2.6.16",
  cpus = 2,
}

local irq_at    = param("irq_at", 15000)   -- when the card interrupts, ns
local converted = param("converted", true) -- console_sem as a mutex
if irq_at < 100 then                    -- it is also the interrupt's period
  error(string.format("irq_at must be at least 100 (ns), got %d", irq_at))
end

local console_sem = lock{ name = "console_sem", kind = converted and "mutex" or "semaphore" }
local pending = 0                          -- messages in the log buffer
local printed = atomic{ name = "messages_printed" }
local by_irq  = atomic{ name = "released_by_irq" }

-- release_console_sem(): print everything pending, then unlock
local function flush_and_release()
  while pending > 0 do
    pending = pending - 1
    compute(us(20))                        -- the serial console writes a line
    atomic_inc(printed)
  end
  if in_irq() then atomic_inc(by_irq) end
  up(console_sem)
end

local function printk()
  pending = pending + 1                    -- emit_log_char(): into the buffer
  if down_trylock(console_sem) then        -- the consoles are ours
    flush_and_release()
  end                                      -- else the owner prints it for us
end

-- a kernel thread that logs twice, on CPU 0
task{ name = "kthread", cpu = 0, start = us(5), run = function()
  printk()
  compute(us(5))
  printk()
  compute(us(50))                          -- back to its own work
end }

-- the card's interrupt on CPU 1; only its first firing logs
local logged = false
irq{ name = "eth0", cpu = 1, every = irq_at, handler = function()
  if logged then return end
  logged = true
  printk()                                 -- "eth0: link up"
end }

-- The goal check: it FAILS when the goal is reached.
check(function(r)
  local n = r.violation_counts["mutex-unlock-in-irq"] or 0
  if n > 0 then
    return false, "goal reached: the interrupt handler unlocked the console mutex"
  end
  return true, string.format("goal not reached: %d message(s) printed, %d lock release(s) by the interrupt",
                             r.atomics.messages_printed, r.atomics.released_by_irq)
end)
