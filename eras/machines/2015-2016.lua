-- The machine of the 2015 and 2016 eras: the machine of the qspinlock series,
-- a 4-socket Westmere-EX, on which Waiman Long measured queued spinlocks
-- against ticket locks (commit 2c83e8e9492d: the AIM7 disk workload and a
-- 5M-loop microbenchmark, "4-socket Westmere-EX"; docs/sources.md, the 2015
-- and 2016 machine).  Until December 2026 this file was a flat 2-socket Haswell-EP
-- row; the eras' exhibit is the qspinlock series, so its machine is the one
-- the series was measured on (docs/reproductions.md, "qspinlock_2015").
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2015-2016",
  topology = {
    sockets = 4, dies = 1, cores = 10, threads = 1,  -- P: "4-socket Westmere-EX" [QSPIN];
                                                     --    E: 10-core parts (the top Xeon E7-4800),
                                                     --    Hyper-Threading off: the AIM7 ext4 run
                                                     --    kept 509.72 s of system time busy in
                                                     --    16.15 s, 31.6 CPUs -- 79% of 40, a
                                                     --    CPU-bound run, not 40% of 80
    protocol = "MESIF",                              -- R: Intel since Nehalem (research notes, 5)
    links = "full",                                  -- R: four QPI links a socket; a 4-socket
                                                     --    board links each socket to the others
    llc = "socket",                                  -- R: Westmere-EX's L3 (30 MB a socket) is
                                                     --    shared by the socket's cores and
                                                     --    inclusive: it answers a core's miss on a
                                                     --    line another core of the socket holds,
                                                     --    and its tags say which cores hold a line
                                                     --    ([SOSP13] measure both, Table 2)
    store_buffer = true,                             -- R: x86 (TSO): a plain store waits in the
                                                     --    store buffer, the core goes on; a locked
                                                     --    instruction drains the buffer first
  },
  costs = {
    cli        = 3,     -- E: as the 2011 machine (Westmere-EP)
    atomic     = 8,     -- E: a locked RMW on a line already held, as the 2011 machine
    cacheline  = 152,   -- R: [SOSP13] one hop; the flat stand-in, read only without a topology
    hit        = 2,     -- E: an L1 hit, a few cycles
    same_core  = 4,     -- E: Hyper-Threading siblings share the L1 (none here: threads = 1)
    same_die   = 56,    -- R: [SOSP13] Xeon E7 (Westmere-EX), CAS on a line Modified in
                        --    another core of the die, 120 cycles at 2.13 GHz
    same_socket = 56,   -- one die a socket: never used
    hop1       = 152,   -- R: [SOSP13] the same, one socket away, 324 cycles
    hop2       = 202,   -- R: [SOSP13] two sockets away, 430 cycles (an 8-socket board; never
                        --    used here, every socket one link from the others)
    invalidate = 152,   -- not read here (llc = "socket": an upgrade waits for its farthest
                        --    copy, 56 ns on the die, 152 a socket away: [SOSP13]'s store on a
                        --    Shared line, 116 and 318 cycles, within 3 ns of these)
    llc        = 21,    -- R: [SOSP13] Table 2, a load of a line Shared in another core of the
                        --    die, 44 cycles at 2.13 GHz: the socket's L3 answers it
    ctxsw      = 3000,  -- R: as the 2011 machine (most likely [TSU10], not re-read)
    wakeup     = 5000,  -- E: as the 2011 machine
    irq_entry  = 1000,  -- E: as the 2011 machine
  },
}
