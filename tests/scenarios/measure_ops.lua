-- expect-exit: 0
-- args: --era 2015 --cpus 2 --report json
-- expect-stdout: "p99_ns": 
-- measure() records latencies in the report's ops.
scenario{ name = "measure_ops" }
local m = lock{ name = "m", kind = "mutex" }
for i = 1, 2 do
  task{ name = "t" .. i, run = function()
    for k = 1, 50 do
      measure("locked_op", function() down(m); compute(us(k % 5 + 1)); up(m) end)
    end
  end }
end
check(function(r)
  local o = r.ops.locked_op
  return o ~= nil and o.count == 100 and o.p99_ns >= o.p50_ns and o.max_ns >= o.p99_ns
    and o.min_ns <= o.p50_ns, "ops.locked_op: count, min <= p50 <= p99 <= max"
end)
