-- command: compare
-- args: --cpus 4,8
-- expect-exit: 0
-- expect-stdout: 8 time-limit +4611686018\.43 .* 50\.0% +0\.0% +50\.0%
-- The compare table summed the CPUs' time of a run in an int64_t: four
-- CPUs busy for almost 2^62 ns each overflowed it (undefined behaviour,
-- shares of a negative total).
-- FIXED: the sums are in double, the lock totals saturating.
scenario{ name = "extremes_text", cpus = 4, duration = 1 << 62 }
local c = counter{ name = "swing", unit = "bytes" }
for i = 0, 3 do
  task{ name = "t" .. i, cpu = i, run = function()
    if i == 0 then
      counter_add(c, math.mininteger)
      counter_add(c, -1)
      counter_add(c, 1)
      counter_add(c, math.maxinteger)
      counter_add(c, 1)
    end
    compute(1 << 62)
  end }
end
