-- expect-exit: 0
-- expect-stdout: all +100\.0% +0\.0%
-- expect-stdout: swing +0 9223372036854775807 bytes
-- Four CPUs busy for almost 2^62 ns each, and a counter that swings from
-- INT64_MIN to INT64_MAX and back: the text report's "all" row once
-- summed the CPUs' time in an int64_t (signed overflow, a percentage of a
-- negative total), and the view's counter lane drew outside its pixels.
-- FIXED: totals of scenario-controlled numbers are saturating or double.
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
