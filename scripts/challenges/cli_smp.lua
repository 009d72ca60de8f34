-- Challenge 1 -- cli() on SMP: a driver of 1996 on the kernel of 2.5.28.
--
-- GOAL: lose an update.  Make the network card's interrupt, on the other
-- CPU, land inside the driver's cli() section, so that its rx_packets++
-- is overwritten (a `lost-update` violation; the goal check fails).
--
-- The driver was written the uniprocessor way: the statistics block is
-- shared with the interrupt handler, and the process-context path guards
-- its read-modify-write with cli()/sti(), as 0.01 did.  On the SMP boxes of
-- 1996 to 2002 that still worked, because cli() on SMP was __global_cli():
-- it took the global irq lock, and a handler arriving on another CPU spun
-- in irq_enter() until sti().  2.5.28 removed the global cli(); from then
-- on a cli() that survived (or became local_irq_disable()) masks only the
-- CPU it runs on, "far from" the old SMP meaning, as the removal guide
-- warned.  The handler on CPU 1 walks straight in.
--
-- The timing is fixed: the interrupt fires once at `irq_at` (ns).  By
-- default it comes after the task's critical section and nothing is lost.
-- Find an `irq_at` that breaks it.
-- Solution:  --set irq_at=12000
-- Then try the same solution on the box's own kernel:  --era 1996
-- (the global irq lock makes the handler wait; nothing is lost).
scenario{
  name = "challenge_cli_smp",
  title = "Challenge: lose an update behind a 1996 driver's cli() on 2.5.28 SMP",
  description = "Goal: make the interrupt on CPU 1 land inside the cli() section on CPU 0 (a lost update).",
  era = "2.5.28",
  cpus = 2,
}

local irq_at = param("irq_at", 25000)   -- when the card interrupts, ns
if irq_at < 100 then                    -- it is also the interrupt's period
  error(string.format("irq_at must be at least 100 (ns), got %d", irq_at))
end

local stats_guard = lock{ name = "cli", kind = "cli" }  -- the driver's cli()/sti()
local rx_packets  = var{ name = "rx_packets" }

-- netif_rx() in process context (a bottom half of the time), on CPU 0
task{ name = "netif_rx", cpu = 0, start = us(10), run = function()
  down(stats_guard)                 -- cli()
  local n = read(rx_packets)        -- n = stats->rx_packets
  compute(us(5))                    -- checksum, queue the skb
  write(rx_packets, n + 1)          -- stats->rx_packets = n + 1
  up(stats_guard)                   -- sti()
  compute(us(30))                   -- hand the packet up the stack
end }

-- the card's interrupt, routed to CPU 1; it fires every `irq_at` ns but
-- only the first firing has a packet
local served = false
irq{ name = "eth0", cpu = 1, every = irq_at, handler = function()
  if served then return end
  served = true
  add(rx_packets, 1)                -- stats->rx_packets++
end }

-- The goal check: it FAILS when the goal is reached.
check(function(r)
  local lost = r.violation_counts["lost-update"] or 0
  if lost > 0 then
    return false, string.format("goal reached: %d update(s) lost, rx_packets = %d of 2",
                                lost, r.vars.rx_packets)
  end
  return true, string.format("goal not reached: rx_packets = %d, no update lost",
                             r.vars.rx_packets)
end)
