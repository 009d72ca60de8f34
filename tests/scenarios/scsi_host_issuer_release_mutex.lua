-- expect-exit: 1
-- args: --era 2006 --mode mutex --report json
-- expect-stdout: "mutex-unlock-in-irq": 6
-- expect-stdout: "message": "host lock: no violation"
-- The SCSI pattern with the host released by the issuer itself once its
-- command is done: as a mutex the host lock is fine (taken and released
-- by the same task, never in an interrupt); the 6 MUTEX_LOCKED
-- completions, released by the interrupt, are still violations.
scenario{ name = "scsi_host_issuer_release_mutex" }
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
  up(done[who])            -- wake the issuer; the host stays taken
end }
for i = 1, 2 do
  task{ name = "sd/" .. i, run = function()
    for k = 1, 3 do
      down(host)
      write(issuer, i)
      write(busy_until, now() + ms(2))
      down(done[i])
      up(host)             -- the issuer frees the host: a plain lock
      atomic_inc(completed)
    end
  end }
end
check(function(r)
  local bad = 0
  for _, v in ipairs(r.violations) do if v.lock == "host" then bad = bad + 1 end end
  return bad == 0 and r.atomics.completed == 6,
    bad == 0 and "host lock: no violation" or ("host lock: " .. bad .. " violations")
end)
