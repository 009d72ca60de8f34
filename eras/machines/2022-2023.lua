-- The machine of the 2022 and 2023 eras: the 2022-23 row (docs/sources.md).
-- Two sockets, one UPI hop apart, 16 cores x 2 threads each (MESIF, R): the eras'
-- typical 64-CPU server; the Ice Lake figures stand in for its transfers.
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2022-2023",
  topology = {
    sockets = 2, dies = 1, cores = 16, threads = 2, -- E: the eras' 2-socket, 64-CPU server
    protocol = "MESIF",                             -- R: Intel's Forward state
    links = "full",                                 -- R: two sockets, linked directly by UPI
  },
  costs = {
    cli       = 3,      -- E: within a 2-5 ns estimate
    atomic    = 3,      -- M: lock cmpxchg 2.8 ns uncontended (lock xadd 2.3 ns), 2026 VM
    cacheline = 128,    -- R [ICX]: Ice Lake Xeon 8360Y cross-socket 126-129 ns (same socket 60 ns)
    hit       = 1,      -- E: an L1 hit, 5 cycles at ~3 GHz
    same_core = 1,      -- E: the sibling thread shares the L1
    same_die  = 60,     -- R [ICX]: Ice Lake Xeon 8360Y, same socket 60 ns
    hop1      = 128,    -- R [ICX]: cross-socket 126-129 ns (as cacheline)
    hop2      = 200,    -- E: only a run past 64 CPUs adds sockets (docs/sources.md)
    invalidate = 128,   -- E: an upgrade snoops the other socket: about one hop
    ctxsw     = 3000,   -- E: ~3 us estimate (with speculative-execution mitigations)
    wakeup    = 4000,   -- E: 3-5 us estimate; 10-50 us (E) from a deep C-state is not modelled
    irq_entry = 750,    -- E: middle of a 0.5-1 us estimate
  },
}
