-- expect-exit: 2
-- args: --duration -5ms
-- expect-stderr: --duration -5ms: must be a positive duration
-- A negative --duration.
scenario{ name = "absurd_duration_option_negative" }
