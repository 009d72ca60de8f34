-- expect-exit: 2
-- args: --duration nan
-- expect-stderr: --duration nan: must be a positive duration
-- --duration NaN.
scenario{ name = "absurd_duration_option_nan" }
