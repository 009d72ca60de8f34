-- The machine of the 2022 and 2023 eras: the 2022-23 row (docs/sources.md).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2022-2023",
  costs = {
    cli       = 3,      -- E: within a 2-5 ns estimate
    atomic    = 3,      -- M: lock cmpxchg 2.8 ns uncontended (lock xadd 2.3 ns), 2026 VM
    cacheline = 128,    -- R [ICX]: Ice Lake Xeon 8360Y cross-socket 126-129 ns (same socket 60 ns)
    ctxsw     = 3000,   -- E: ~3 us estimate (with speculative-execution mitigations)
    wakeup    = 4000,   -- E: 3-5 us estimate; 10-50 us (E) from a deep C-state is not modelled
    irq_entry = 750,    -- E: middle of a 0.5-1 us estimate
  },
}
