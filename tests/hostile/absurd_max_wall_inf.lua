-- expect-exit: 2
-- args: --max-wall inf
-- expect-stderr: --max-wall inf: must be a positive number of seconds
-- The wall-clock budget cannot be switched off with infinity...
scenario{ name = "absurd_max_wall_inf" }
