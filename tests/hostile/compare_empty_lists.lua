-- expect-exit: 2
-- command: compare
-- args: --modes ,,,
-- expect-stderr: --modes
-- An empty list (--modes ,,, or --cpus ,,, or --eras '') is bad usage:
-- exit 2, naming the option.
scenario{ name = "compare_empty_lists" }
task{ name = "t", run = function() compute(us(1)) end }
