-- long_hold.lua: a trace export's spool, past its window.  One task holds
-- "outer" from its first microsecond to its last while another takes and
-- releases "inner" `rounds` times: more lock slices (two a round, a wait
-- and a hold, when contended) than the exporter keeps in memory when the
-- records are spooled, so the long hold's end is patched on disk, not in
-- memory.  The export from the spool must be the export from memory,
-- byte for byte.
scenario{ name = "long_hold", title = "Trace export: one hold across many",
          era = "2009", cpus = 2, seed = 1 }

local outer = lock{ name = "outer", kind = "semaphore" }
local inner = lock{ name = "inner", kind = "spinlock" }
local rounds = param("rounds", 40000)

task{ name = "keeper", cpu = 0, run = function()
  down(outer)
  for _ = 1, rounds do
    down(inner)
    compute(100)
    up(inner)
    compute(100)
  end
  up(outer)
end }

task{ name = "other", cpu = 1, run = function()
  for _ = 1, rounds do
    down(inner)
    compute(100)
    up(inner)
  end
end }
