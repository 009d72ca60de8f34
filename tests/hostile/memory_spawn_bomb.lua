-- expect-exit: 2
-- args: --max-wall 0.5
-- expect-stderr: memory_spawn_bomb\.lua(:[0-9]+)?: (wall-clock budget of 0\.5 s exceeded|spawn\{\}: more than 2,000,000 contexts)
-- Every task spawns two more.  Tasks live in the simulator (C memory, not
-- the Lua budget): spawn{} stops at 2,000,000 contexts, which takes about
-- 10 s and 1.1 GB here, so the wall-clock budget usually ends it first.
scenario{ name = "memory_spawn_bomb", cpus = 1 }
local function f()
  spawn{ name = "s", run = f }
  spawn{ name = "s", run = f }
end
task{ name = "t", run = f }
