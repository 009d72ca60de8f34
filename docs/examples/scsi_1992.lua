-- scsi_1992.lua: Linux 0.96's SCSI layer, the first user of semaphores.
-- host_sem (count 1) lets one process at a time talk to the controller.
-- cmd_done starts locked (count 0, MUTEX_LOCKED in the source): the issuer
-- sleeps in down() until the controller's interrupt handler calls up().
-- A semaphore allows that; a mutex does not, which is why such semaphores
-- could not simply become mutexes.  Compare:  --mode mutex --anachronism
scenario{
  name = "scsi_1992",
  title = "A semaphore released by an interrupt handler",
  era = "0.96",
}

local host_sem = lock{ name = "host_sem" }                 -- count 1
local cmd_done = lock{ name = "cmd_done", count = 0 }      -- starts locked
local inflight = false        -- a plain Lua upvalue: "the controller is busy"
local served   = atomic{ name = "commands_done" }

for i = 1, 3 do
  task{ name = "scsi_read/" .. i, run = function()
    for k = 1, 2 do
      down(host_sem)                 -- one command at a time on this host
      compute(us(50))                -- build the command, start the DMA
      inflight = true
      down(cmd_done)                 -- sleep until the interrupt says done
      atomic_inc(served)
      up(host_sem)
      compute(us(100))
    end
  end }
end

irq{ name = "aha1542", cpu = 0, every = ms(1), jitter = us(200), handler = function()
  if inflight then
    inflight = false
    compute(us(20))                  -- read the mailbox
    up(cmd_done)                     -- wake the issuer, from irq context
  end
end }

check(function(r)
  return r.atomics.commands_done == 6,
         string.format("%d of 6 commands completed", r.atomics.commands_done)
end)
