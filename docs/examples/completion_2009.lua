-- completion_2009.lua: a driver's probe starts one worker per port with
-- kthread_run() and waits for each to finish its reset with
-- wait_for_completion().  Meanwhile three readers wait for the firmware,
-- which the loader announces once to all of them with complete_all().
scenario{
  name = "completion_2009",
  title = "Completions: one per worker, and complete_all() for many waiters",
  era = "2.6.30",
  cpus = 4,
}

local ports = param("ports", 3)

local fw_loaded = completion{ name = "fw_loaded" }
local reset_done = {}
for p = 1, ports do
  reset_done[p] = completion{ name = "reset_done/" .. p }
end
local up_ports = atomic{ name = "ports_up" }

task{ name = "probe", run = function()
  for p = 1, ports do
    spawn{ name = "port_reset/" .. p, run = function()
      sleep(ms(p))                         -- the hardware takes p ms
      atomic_inc(up_ports)
      complete(reset_done[p])
    end }
  end
  for p = 1, ports do
    wait_for_completion(reset_done[p])
  end
  log("all %d ports are up at t=%d ns", ports, now())
end }

task{ name = "fw_loader", run = function()
  sleep(ms(2))                             -- request_firmware()
  complete_all(fw_loaded)                  -- every waiter, now and later
end }

for i = 1, 3 do
  task{ name = "reader/" .. i, start = ms(i), run = function()
    measure("wait for firmware", function() wait_for_completion(fw_loaded) end)
  end }
end

check(function(r)
  return r.atomics.ports_up == ports, r.atomics.ports_up .. " ports up"
end)
