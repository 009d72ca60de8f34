-- expect-exit: 0
-- args: --era 2017 --cpus 4
-- expect-stdout: ok +10 helpers ran
-- spawn{} starts tasks from a task (call_usermodehelper-style).
scenario{ name = "spawn" }
local running = atomic{ name = "helpers_done" }
local all = completion{ name = "all_done" }
task{ name = "parent", run = function()
  for i = 1, 10 do
    spawn{ name = "helper/" .. i, run = function()
      compute(us(20))
      if atomic_add_return(running, 1) == 10 then complete(all) end
    end }
  end
  wait_for_completion(all)
end }
check(function(r) return r.atomics.helpers_done == 10, r.atomics.helpers_done .. " helpers ran" end)
check(function(r) return #r.tasks == 11, #r.tasks .. " tasks in the report" end)
