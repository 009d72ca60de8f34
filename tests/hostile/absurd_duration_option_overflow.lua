-- expect-exit: 2
-- args: --duration 1e300s
-- expect-stderr: --duration 1e300s: must be a positive duration
-- --duration that overflows 64-bit nanoseconds.
scenario{ name = "absurd_duration_option_overflow" }
