-- expect-exit: 0
-- args: --max-wall 8
-- max-seconds: 9
-- expect-stdout: outcome: completed
-- QUADRATIC, AND OUTSIDE THE WALL BUDGET (engine bug).  Each declaration
-- compares its name with every earlier one (scenario.c unique_name), and
-- instantiation looks every lock up again by name (sim.c km_lock_find,
-- also linear): 50,000 locks take 4.6 s to declare and 5.5 s more to
-- build and run.  The second half is watched by no budget: this file, with
-- --max-wall 8, runs about 14 s here and exits 0.  Fix: a hash of names
-- per declaration type (and check the wall clock while instantiating).
-- Expected once fixed: completes within the 8 s budget.
scenario{ name = "absurd_many_locks_quadratic" }
for i = 1, 60000 do lock{ name = "l" .. i } end
