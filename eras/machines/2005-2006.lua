-- The machine of the 2005 and 2006 eras: the 8-way Pentium III Xeon of Molnar's
-- December 2005 benchmarks (docs/sources.md, "The 2005-2006 machine").
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
--
-- No topology: the machine stays flat (every line transfer costs `cacheline`,
-- a line's home serving one miss at a time, engine/cache.h).  A P6 box of
-- eight CPUs had them on shared front-side buses -- two buses of four joined
-- by the chipset, if it was the Profusion design (E, docs/sources.md, "The
-- 2005-2006 machine") -- where every transfer occupies the one bus, whoever
-- the two CPUs are.  engine/cache.c's topology forms are point-to-point
-- (sockets, dies, cores, threads; full or ring links) and price a transfer
-- by the distance between two CPUs, not by a shared medium's occupancy, so
-- none of them describes a bus; and which chipset "mars" had is not known.
-- Flat, with one E cost for a transfer, is what the sources support.
machine{
  name = "2005-2006",
  costs = {
    -- The 8-way of Molnar's December 2005 benchmarks, most likely a ~700 MHz
    -- Pentium III Xeon box (an inference: docs/sources.md, "The 2005-2006 machine"):
    -- each cost interpolated by clock between the 1999 (450 MHz) and 2001
    -- (~1 GHz) rows, except the IPI.
    cli       = 20,     -- E: between 30 (1999) and 10 (2001)
    atomic    = 40,     -- E: between 60 (1999) and 25 (2001)
    cacheline = 150,    -- E: 150 in both rows (a shared P6 front-side bus)
    ctxsw     = 4300,   -- E: between 5000 (1999) and 3500 (2001)
    wakeup    = 9100,   -- E: between 10000 (1999) and 8000 (2001)
    irq_entry = 2500,   -- E: between 3000 (1999) and 2000 (2001)
    ipi       = 1260,   -- E from P: one reschedule IPI on the P6's serial APIC bus,
                        --    a short message of 21 bus cycles (Intel SDM vol. 3B,
                        --    App. F) at the bus's typical 16.7 MHz (Lundell, LKML,
                        --    8 Oct 2001, whose 2-3 us is an interrupt plus its EOI:
                        --    21 + 14 to 34 + 14 cycles); fixed delivery, edge
                        --    triggered, so no EOI message.  A sender waits only
                        --    for its own previous IPI (docs/sources.md, [IPI26], [SDM-F])
  },
}
