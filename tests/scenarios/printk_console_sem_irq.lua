-- expect-exit: 0
-- args: --era 2006 --cpus 2
-- expect-stdout: ok +released from irq 1, woke the VT writer 1, printed 2 of 2
-- The console semaphore of scripts/printk.lua, small: an interrupt
-- handler's printk() wins down_trylock(console_sem), prints, and up()s it
-- from interrupt context; that up() wakes a task asleep in down().
-- Legal for a semaphore.
scenario{ name = "printk_console_sem_irq" }
local console_sem = lock{ name = "console_sem", kind = "semaphore" }
local logbuf_lock = lock{ name = "logbuf_lock", kind = "spinlock", pinned = true }
local log_end, con_start = var{ name = "log_end" }, var{ name = "con_start" }
local fired = var{ name = "fired" }
local sleeping = atomic{ name = "vt_sleeping" }
local from_irq, woke = atomic{ name = "from_irq" }, atomic{ name = "woke" }

local function release_console_sem()
  while true do
    local_irq_disable(); down(logbuf_lock)
    local s, e = read(con_start), read(log_end)
    if s == e then break end
    write(con_start, e)
    up(logbuf_lock)
    compute(ms(1) * (e - s))             -- the serial console
    local_irq_enable()
  end
  if in_irq() then
    atomic_inc(from_irq)
    if atomic_read(sleeping) > 0 then atomic_inc(woke) end
  end
  up(console_sem)
  up(logbuf_lock); local_irq_enable()
end

local function printk()
  local_irq_disable(); down(logbuf_lock)
  write(log_end, read(log_end) + 1)
  local mine = down_trylock(console_sem)
  up(logbuf_lock)
  if mine then release_console_sem() end
  local_irq_enable()
end

irq{ name = "eth0", cpu = 0, every = us(100), handler = function()
  if read(fired) > 0 then return end
  write(fired, 1)
  printk()                               -- wins the trylock: prints in the irq
end }
task{ name = "vt", cpu = 1, start = us(400), run = function()
  atomic_inc(sleeping)
  down(console_sem)                      -- acquire_console_sem(): sleeps
  atomic_dec(sleeping)
  local_irq_disable(); down(logbuf_lock)
  write(log_end, read(log_end) + 1)      -- con_write() output, logged too
  up(logbuf_lock); local_irq_enable()
  release_console_sem()
end }
check(function(r)
  return r.atomics.from_irq == 1 and r.atomics.woke == 1 and r.vars.con_start == 2 and
    #r.violations == 0, string.format("released from irq %d, woke the VT writer %d, printed %d of %d",
    r.atomics.from_irq, r.atomics.woke, r.vars.con_start, r.vars.log_end)
end)
