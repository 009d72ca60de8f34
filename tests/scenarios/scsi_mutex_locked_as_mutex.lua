-- expect-exit: 1
-- args: --era 2006 --mode mutex --report json
-- expect-stdout: "mutex-unlock-in-irq": 12
-- expect-stdout: "outcome": "completed"
-- The same small SCSI pattern as scsi_mutex_locked_semaphore.lua, forced
-- into mutexes: every up() the interrupt makes (6 on the host, 6 on the
-- MUTEX_LOCKED completions) is a mutex_unlock() in interrupt context.
scenario{ name = "scsi_mutex_locked_as_mutex" }
local host = lock{ name = "host", kind = "semaphore" }
local done = { lock{ name = "cmd_done/1", kind = "semaphore", count = 0 },
               lock{ name = "cmd_done/2", kind = "semaphore", count = 0 } }
local busy_until = var{ name = "busy_until" }
local issuer = var{ name = "issuer" }
local completed = atomic{ name = "completed" }
irq{ name = "scsi0", every = us(300), handler = function()
  local t = read(busy_until)
  if t == 0 or now() < t then return end
  local who = read(issuer)
  write(busy_until, 0)
  up(host)                 -- scsi_done(): the host is free
  up(done[who])            -- wake the issuer
end }
for i = 1, 2 do
  task{ name = "sd/" .. i, run = function()
    for k = 1, 3 do
      down(host)
      write(issuer, i)
      write(busy_until, now() + ms(2))
      down(done[i])        -- MUTEX_LOCKED: sleep until the interrupt
      atomic_inc(completed)
    end
  end }
end
check(function(r)
  return r.atomics.completed == 6 and #r.violations == 0,
    string.format("%d commands completed, %d violations", r.atomics.completed, #r.violations)
end)
