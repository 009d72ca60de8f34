-- expect-exit: 2
-- args: --max-events 0
-- expect-stderr: --max-events 0: must be a positive whole number
-- The event budget cannot be switched off with 0.
scenario{ name = "absurd_max_events_zero" }
