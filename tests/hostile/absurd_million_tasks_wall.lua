-- expect-exit: 2
-- args: --max-wall 0.5
-- expect-stderr: absurd_million_tasks_wall\.lua(:[0-9]+)?: wall-clock budget of 0\.5 s exceeded
-- A million tasks on one CPU.  Found: with the default budgets this is not
-- refused -- it runs to the end (about 21 s and 2 GB of memory here: the
-- tasks live in the simulator, outside the Lua memory budget; 4 million
-- events; 218 MB of JSON with --report json).  Declaring them alone takes
-- about 2.5 s, so a 0.5 s wall-clock budget ends it during the declarations
-- (with a line) or early in the run (the file only).
scenario{ name = "absurd_million_tasks_wall", cpus = 1 }
for i = 1, 1000000 do
  task{ name = "t", run = function() compute(1) end }
end
