-- expect-exit: 2
-- command: compare
-- args: --modes ,,,
-- expect-stderr: --modes
-- FIXED (was pending): -- WRONG EXIT (engine bug): an empty list (--modes ,,, or --cpus ,,, or
-- --eras '') makes "0 runs" and exits 0.  It is bad usage: exit 2.
scenario{ name = "compare_empty_lists" }
task{ name = "t", run = function() compute(us(1)) end }
