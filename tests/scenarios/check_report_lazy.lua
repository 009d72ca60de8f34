-- expect-exit: 0
-- args: --era 2023 --cpus 3 --report json
-- expect-stdout: "message": "3 tasks, 2 locks, 3 cpus, 3 acquisitions"
-- expect-stdout: "message": "pairs: .*atomics,checks,counters,cpus,cpus_util,era,.*locks,.*tasks,
-- expect-stdout: "message": "kept: 3 tasks"
-- The parts of the report that grow with the machine (r.tasks, r.locks,
-- r.cpus_util) are made only when a check reads them: reading them, by
-- name, with ipairs and with pairs over the report, must see exactly
-- what --report json prints.
scenario{ name = "check_report_lazy" }
local a = lock{ name = "a", kind = "mutex" }
local b = lock{ name = "b", kind = "mutex" }
for i = 1, 3 do
  task{ name = "t" .. i, run = function() down(i == 2 and b or a); compute(100); up(i == 2 and b or a) end }
end
check(function(r)
  local acq = 0
  for _, t in ipairs(r.tasks) do acq = acq + t.acquisitions end
  return #r.tasks == 3 and #r.locks == 2 and #r.cpus_util == 3 and acq == 3,
         #r.tasks .. " tasks, " .. #r.locks .. " locks, " .. #r.cpus_util .. " cpus, " ..
         acq .. " acquisitions"
end)
local kept
check(function(r)
  local keys = {}
  for k in pairs(r) do keys[#keys + 1] = k end
  kept = r
  return r.tasks[2].name == "t2" and r.locks[2].acquisitions == 1, "pairs: " .. table.concat(keys, ",")
end)
check(function(r)
  -- the same table in every check, its parts made once
  return rawequal(r, kept) and rawget(r, "tasks") ~= nil, "kept: " .. #kept.tasks .. " tasks"
end)
