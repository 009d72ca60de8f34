-- 2006: printk() and the console semaphore.
--
-- printk() can be called from anywhere: a system call, a kernel thread, an
-- interrupt handler, with or without locks held.  It must never sleep, and
-- the consoles it writes to (a serial port at 115200 baud, polled one
-- character at a time) are slow.  The 2.6 design (kernel/printk.c):
--
--   * vprintk(): interrupts off, take logbuf_lock (a spinlock), format the
--     message into the log buffer (log_end moves), then down_trylock() the
--     console semaphore.  Never down(): this may be an interrupt.
--   * If the trylock fails, someone else owns the consoles: drop
--     logbuf_lock and return.  The owner will print our message for us.
--   * If it succeeds, this caller -- whoever it is, interrupt handler
--     included -- calls release_console_sem(): under logbuf_lock take
--     everything between con_start and log_end, drop the spinlock, feed it
--     to the console drivers (interrupts still off on this path), and loop
--     until the buffer is drained; then up(&console_sem), still holding
--     logbuf_lock, so a message appended meanwhile is never left behind.
--   * Process-context users (a VT switch, register_console(), a write to
--     the console tty) take it with acquire_console_sem() = down(), which
--     may sleep, and give it back with release_console_sem() too.
--
-- So console_sem is a binary semaphore (in 2.6.16 it is declared with
-- DECLARE_MUTEX, which then still made a semaphore) that is released from
-- interrupt context every time an interrupt handler's printk() happened to
-- win the trylock -- and that release may wake a task sleeping in
-- acquire_console_sem().  A mutex allows neither.  When mutexes came in
-- (2.6.16) console_sem stayed a semaphore, and it still was one in 2023,
-- when Sergey Senozhatsky warned that the remaining binary semaphores
-- cannot be converted without a close look; LWN's example was this one:
-- mutex_unlock() cannot be called from an interrupt, up() can.
--
-- The model: `tasks` kernel threads each printk() `msgs` messages, with
-- work and sleeps between them; `irqs` interrupt sources (on CPU 0) each
-- printk() once per firing until they have printed `irq_msgs`; a process
-- writes to the VT `vt_writes` times, and con_write() takes the semaphore
-- with down().  A message of `chars` characters costs chars x 10 bits /
-- `baud` on the console.  Counted: who released console_sem (task or
-- interrupt), how many of the interrupt's up()s woke the sleeping VT
-- writer, how many messages were printed by a context other than their
-- author, the longest console flush inside an interrupt handler.
--
-- Measured with the defaults (2006, 4 CPUs, 4 tasks x 20 + 2 irqs x 10
-- messages, 40 chars at 115200 baud = 3.5 ms each, 40 VT writes):
--   native (semaphore)    100 messages printed, no violation; console_sem
--                         released 96 times, 9 of them by an interrupt
--                         handler, and 4 of those up()s woke the VT writer
--                         asleep in down(); 44 messages printed by someone
--                         other than their author; the longest flush inside
--                         an interrupt handler 10.4 ms, interrupts off
--   --mode mutex          exit 1: 10 mutex-unlock-in-irq (the timing shifts
--                         a little: 10 releases from interrupts this time,
--                         each one a violation)
-- Other seeds (1-40) give 7 to 18 releases from interrupt handlers.
--
-- Try also:  --set baud=9600  a slow serial console (42 ms a message) that
--            cannot keep up: the first kthread to win the trylock prints
--            everyone's messages for 2.5 s with interrupts off, no
--            interrupt ever gets console_sem, and the premise check fails.
--            That latency, not the semaphore, is what later printk
--            redesigns went after.
--            --cpus 1  one CPU: nobody prints for anybody (0 hand-overs),
--            since a printk() with interrupts off cannot be interrupted

scenario{
  name = "printk",
  title = "2006: printk() and the console semaphore, released from interrupts",
  era = "2006",
  cpus = 4,
  seed = 2006,
  duration = sec(60),   -- well under a second with the defaults
}

local ntasks    = param("tasks", 4)       -- kernel threads calling printk()
local msgs      = param("msgs", 20)       -- messages per task
local nirqs     = param("irqs", 2)        -- interrupt sources calling printk()
local irq_msgs  = param("irq_msgs", 10)   -- messages per interrupt source
local vt_writes = param("vt_writes", 40)  -- con_write()s: acquire_console_sem() in a task
local chars     = param("chars", 40)      -- characters per message
local baud      = param("baud", 115200)   -- serial console speed

local per_msg = chars * 10 * 1000000000 // baud   -- ns on the console, 8N1

local console_sem = lock{ name = "console_sem", count = 1, kind = "semaphore" }
-- logbuf_lock is a spinlock in every mode: --mode is about console_sem.
local logbuf_lock = lock{ name = "logbuf_lock", kind = "spinlock", pinned = true }

local log_end   = var{ name = "log_end" }     -- messages in the log buffer
local con_start = var{ name = "con_start" }   -- messages handed to the console
local vt_sleeping = atomic{ name = "vt_sleeping" }

local up_irq    = counter{ name = "up_from_irq", unit = "up() calls" }
local up_task   = counter{ name = "up_from_task", unit = "up() calls" }
local woke_vt   = counter{ name = "irq_woke_sleeper", unit = "wake-ups" }
local left      = counter{ name = "left_for_holder", unit = "messages" }
local backlog   = counter{ name = "backlog", unit = "messages" }

-- release_console_sem(): print everything, then up() under logbuf_lock.
local function release_console_sem()
  while true do
    local_irq_disable()                  -- spin_lock_irqsave(&logbuf_lock)
    down(logbuf_lock)
    local s, e = read(con_start), read(log_end)
    if s == e then break end             -- nothing more to print
    write(con_start, e)
    counter_add(backlog, -(e - s))
    up(logbuf_lock)                      -- spin_unlock(): irqs stay off
    compute(per_msg * (e - s))           -- call_console_drivers()
    local_irq_enable()                   -- local_irq_restore(flags)
  end
  if in_irq() then
    counter_add(up_irq, 1)
    if atomic_read(vt_sleeping) > 0 then counter_add(woke_vt, 1) end
  else
    counter_add(up_task, 1)
  end
  up(console_sem)                        -- still under logbuf_lock
  up(logbuf_lock)
  local_irq_enable()
end

-- vprintk()
local function printk()
  local_irq_disable()                    -- raw_local_irq_save(flags)
  down(logbuf_lock)
  compute(us(2))                         -- vscnprintf + emit_log_char
  write(log_end, read(log_end) + 1)
  counter_add(backlog, 1)
  local mine = down_trylock(console_sem) -- try_acquire_console_sem()
  up(logbuf_lock)
  if mine then
    if in_irq() then
      measure("flush_in_irq", release_console_sem)
    else
      release_console_sem()
    end
  else
    counter_add(left, 1)                 -- the owner will print it
  end
  local_irq_enable()                     -- raw_local_irq_restore(flags)
end

for i = 1, ntasks do
  task{
    name = "kthread/" .. i,
    start = us(100 * i),
    run = function()
      for k = 1, msgs do
        compute(us(rand(100, 1000)))
        measure("printk", printk)
        sleep(ms(rand(10, 50)))
      end
    end,
  }
end

local irq_printed = {}
for q = 1, nirqs do
  irq_printed[q] = var{ name = "irq_printed/" .. q }
  irq{
    name = "eth" .. (q - 1), cpu = 0,   -- without irqbalance, x86 sent them all to CPU 0
    every = ms(25), jitter = ms(10),
    start = ms(3 * q),
    handler = function()
      local n = read(irq_printed[q])
      if n >= irq_msgs then return end
      write(irq_printed[q], n + 1)
      compute(us(5))                     -- the handler's own work
      measure("printk_irq", printk)      -- "eth0: link up" and friends
    end,
  }
end

if vt_writes > 0 then
  task{
    name = "vt",
    run = function()
      for k = 1, vt_writes do
        sleep(ms(rand(5, 20)))       -- a process writing to the VT
        atomic_inc(vt_sleeping)
        measure("acquire_console_sem", function() down(console_sem) end)
        atomic_dec(vt_sleeping)
        compute(us(300))                 -- do_con_write(): draw the text under console_sem
        release_console_sem()
      end
    end,
  }
end

local total = ntasks * msgs + nirqs * irq_msgs

check(function(r)
  local done = 0
  for _, t in ipairs(r.tasks) do if t.finished then done = done + 1 end end
  local ntask = ntasks + (vt_writes > 0 and 1 or 0)
  return r.vars.log_end == total and r.vars.con_start == total and done == ntask,
    string.format("every message reached the console: %d logged, %d printed (of %d); "
      .. "%d of %d tasks finished", r.vars.log_end, r.vars.con_start, total, done, ntask)
end)

check(function(r)
  local parts = {}
  for kind, n in pairs(r.violation_counts or {}) do
    parts[#parts + 1] = string.format("%d %s", n, kind)
  end
  table.sort(parts)
  return #r.violations == 0, string.format("no violations (%s)",
    #parts > 0 and table.concat(parts, ", ") or "none")
end)

-- The premise: in a run like this, interrupt handlers do end up releasing
-- console_sem (whoever wins the trylock prints and releases).
check(function(r)
  local ui = r.counters.up_from_irq.value
  return ui > 0, string.format("an interrupt handler's printk() won console_sem and "
    .. "released it %d times, %d of those up()s waking a task asleep in "
    .. "acquire_console_sem()", ui, r.counters.irq_woke_sleeper.value)
end)

-- The lesson: legal for a semaphore; as a mutex, each of those releases is
-- a mutex_unlock() in interrupt context.
check(function(r)
  local kind = "?"
  for _, l in ipairs(r.locks) do if l.name == "console_sem" then kind = l.kind end end
  local ui, ut = r.counters.up_from_irq.value, r.counters.up_from_task.value
  local got = (r.violation_counts or {})["mutex-unlock-in-irq"] or 0
  local expected = kind == "mutex" and ui or 0
  local msg = string.format("console_sem as a %s: %d releases, %d from interrupt context; ",
                            kind, ui + ut, ui)
  if kind == "mutex" then
    msg = msg .. string.format("each one a mutex-unlock-in-irq (%d expected, %d reported)",
                               expected, got)
  elseif kind == "semaphore" then
    msg = msg .. "up() from an interrupt is legal for a semaphore"
  else
    msg = msg .. string.format("%d mutex-unlock-in-irq", got)
  end
  return got == expected, msg
end)

-- Numbers to look at.
check(function(r)
  local p, pi, f = r.ops.printk or {}, r.ops.printk_irq or {}, r.ops.flush_in_irq or {}
  local off, all = 0, 0
  for _, c in ipairs(r.cpus_util) do off = off + c.irqoff_ns; all = all + r.sim_time_ns end
  return true, string.format("%d messages printed by a context other than their author; "
    .. "printk() from tasks p50 %.0f us, max %.1f ms; from irqs p50 %.0f us, max %.1f ms; "
    .. "longest console flush inside an irq handler %.1f ms; interrupts off %.1f%% of "
    .. "CPU time; peak backlog %d messages",
    r.counters.left_for_holder.value, (p.p50_ns or 0) / 1e3, (p.max_ns or 0) / 1e6,
    (pi.p50_ns or 0) / 1e3, (pi.max_ns or 0) / 1e6, (f.max_ns or 0) / 1e6,
    all > 0 and 100 * off / all or 0, r.counters.backlog.peak)
end)
