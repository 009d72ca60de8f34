-- cli_smp_1996.lua: cli() on a two-CPU machine.  In 2.0 to 2.5.27 cli()
-- on SMP was __global_cli(): disable local interrupts, then take the
-- global irq lock, so the other CPU's cli() sections were excluded too.
-- 2.5.28 removed it; from then on cli() (local_irq_disable) only masks the
-- local CPU and the other CPU walks right in.  Compare:  --era 2.5.28
scenario{
  name = "cli_smp_1996",
  title = "cli() on SMP: the global irq lock, and life after 2.5.28",
  era = "2.0",
}

local guard = lock{ name = "stats_guard", kind = "cli" }
local nr_packets = var{ name = "nr_packets" }

for c = 0, 1 do
  task{ name = "netif_rx/" .. c, cpu = c, run = function()
    for k = 1, 50 do
      down(guard)                          -- cli()
      add(nr_packets, 1)                   -- nr_packets++
      compute(us(2))
      up(guard)                            -- sti()
      compute(us(3))
    end
  end }
end

check(function(r)
  return r.vars.nr_packets == 100, r.vars.nr_packets .. " packets counted of 100"
end)
