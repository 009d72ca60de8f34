-- expect-exit: 2
-- args: --max-wall nan
-- expect-stderr: --max-wall nan: must be a positive number of seconds
-- ...nor with NaN (every comparison with NaN is false).
scenario{ name = "absurd_max_wall_nan" }
