-- spin2.lua: the render tests' run.  Two tasks on two CPUs (2009, ticket
-- spinlocks) contend for one spinlock:
--   holder  (CPU0) takes the lock at ~3.5 us and keeps it 100 us;
--   spinner (CPU1) starts at 10 us, asks at ~13.5 us and spins until the
--           holder lets go at ~103.5 us.
-- So at t = 60 us CPU1's lane must show "spinning" and CPU0's the
-- holder's colour.  The times follow from era 2009's costs (ctxsw 3.5 us).
scenario{ name = "view_spin2", title = "Two CPUs, one spinlock", era = "2009", cpus = 2,
          seed = 1 }

local l = lock{ name = "the_lock", kind = "spinlock" }

task{ name = "holder", cpu = 0, run = function()
  down(l)
  compute(us(100))
  up(l)
  compute(us(20))
end }

task{ name = "spinner", cpu = 1, start = us(10), run = function()
  down(l)
  compute(us(20))
  up(l)
end }
