-- expect-exit: 1
-- args: --era 2009 --cpus 1
-- expect-stdout: mutex-unlock-in-irq
-- The SCSI pattern with a mutex: a task waits on a locked "mutex" and the
-- completion interrupt releases it.  Legal for a semaphore, not a mutex.
scenario{ name = "mutex_unlock_in_irq" }
local done = lock{ name = "cmd_done", kind = "mutex", count = 0 }
local released = var{ name = "released" }
irq{ name = "scsi", every = us(500), handler = function()
  if read(released) == 0 then
    write(released, 1)
    up(done)
  end
end }
task{ name = "issuer", run = function()
  down(done)
end }
check(function(r)
  return (r.violation_counts["mutex-unlock-in-irq"] or 0) >= 1, "the irq unlocked a mutex"
end)
