-- Where a sleep set that forgets the preemption bound prunes a deadlock.
-- "a" writes x, computes, then writes y; "c" copies x into z 5 us after
-- the start; "b" writes y 20 us after the start, then completes "done";
-- "d" waits for "done" and, if y and z are both 1, waits for a completion
-- nobody completes: a deadlock.  That needs a's write of x before c's
-- read (the run's own timing) and b's write of y before a's (a held at
-- its second write until b has stepped): one hold.  Holding "a" at its
-- start for "b" instead puts c's read before a's write as well -- no
-- deadlock.  A textbook sleep set sees that b's step commutes with the
-- steps of a and c in between, calls the second hold a repeat of the
-- first and prunes it; it is one only with a second hold ("c" held for
-- "a"), which a bound of one does not allow -- so exhaustive:1 would say
-- "covered: yes" (docs/scenarios.md, "Sleep sets and the bound").
scenario{ name = "bound_sleep", era = "2006", cpus = 4 }
local x = var{ name = "x" }
local y = var{ name = "y" }
local z = var{ name = "z" }
local never = completion{ name = "never" }
local done = completion{ name = "done" }
task{ name = "a", run = function()
  write(x, 1)
  compute(us(10))
  write(y, 1)
end }
task{ name = "c", start = us(5), run = function()
  write(z, read(x))
end }
task{ name = "b", start = us(20), run = function()
  write(y, 2)
  complete(done)
end }
task{ name = "d", start = us(200), run = function()
  wait_for_completion(done)
  if read(y) == 1 and read(z) == 1 then
    wait_for_completion(never)
  end
end }
