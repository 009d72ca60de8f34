-- expect-exit: 0
-- args: --era 2022 --cpus 4
-- expect-stdout: vmap_bytes +0 +30 MiB
-- counter{}: final value and peak.
scenario{ name = "counters_peak" }
local c = counter{ name = "vmap_bytes", unit = "MiB" }
local s = lock{ name = "slots", count = 3, kind = "semaphore" }
for i = 1, 8 do
  task{ name = "load/" .. i, run = function()
    down(s)
    counter_add(c, 10)
    compute(us(50))
    counter_add(c, -10)
    up(s)
  end }
end
check(function(r)
  local v = r.counters.vmap_bytes
  return v.value == 0 and v.peak == 30 and v.unit == "MiB",
    string.format("value %d, peak %d %s", v.value, v.peak, v.unit)
end)
