-- expect-exit: 0
-- args: --era 2009 --cpus 1
-- The SCSI pattern natively: up() of a semaphore from an interrupt is legal.
scenario{ name = "semaphore_irq_up_ok" }
local done = lock{ name = "cmd_done", kind = "semaphore", count = 0 }
local released = var{ name = "released" }
irq{ name = "scsi", every = us(500), handler = function()
  if read(released) == 0 then
    write(released, 1)
    up(done)
  end
end }
task{ name = "issuer", run = function() down(done) end }
check(function(r) return r.outcome == "completed" and #r.violations == 0, "completed, no violation" end)
