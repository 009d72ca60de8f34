-- expect-exit: 2
-- expect-stderr: lock_spin_number\.lua:5: lock\{\}: 'spin' must be a string, got number
-- A flavour given as a number (KM_SPIN_QUEUED's value, say).
scenario{ name = "lock_spin_number" }
lock{ name = "l", kind = "spinlock", spin = 3 }
