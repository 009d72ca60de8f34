-- expect-exit: 1
-- args: --era 2009 --cpus 1 --mode mutex
-- expect-stdout: mutex-unlock-in-irq
-- The same SCSI pattern written with a semaphore is fine natively; forced
-- into a mutex with --mode mutex, the interrupt's up() is a violation.
scenario{ name = "semaphore_as_mutex_irq" }
local done = lock{ name = "cmd_done", kind = "semaphore", count = 0 }
local released = var{ name = "released" }
irq{ name = "scsi", every = us(500), handler = function()
  if read(released) == 0 then
    write(released, 1)
    up(done)
  end
end }
task{ name = "issuer", run = function() down(done) end }
