-- expect-exit: 2
-- expect-stderr: lock_spin_unknown\.lua:5: lock\{\}: unknown spin 'clh' \(era, tas, ticket, mcs, queued\)
-- A spinlock flavour the model does not have.
scenario{ name = "lock_spin_unknown" }
lock{ name = "l", kind = "spinlock", spin = "clh" }
