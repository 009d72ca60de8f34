-- expect-exit: 2
-- args: --duration infs
-- expect-stderr: --duration infs: must be a positive duration
-- --duration of infinite seconds.
scenario{ name = "absurd_duration_option_inf" }
