-- expect-exit: 0
-- args: --era 1992
-- expect-stdout: ok +6 commands completed
-- The SCSI pattern of scripts/scsi_host.lua, small: two issuers share one
-- host semaphore; each command sleeps on the issuer's MUTEX_LOCKED
-- semaphore (count 0) until the controller's interrupt frees the host and
-- up()s it.  As semaphores, in 1992 on one CPU, that is all legal.
scenario{ name = "scsi_mutex_locked_semaphore" }
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
