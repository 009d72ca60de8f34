-- expect-exit: 1
-- args: --era 2009 --cpus 2 --report json
-- expect-stdout: "kind": "lock-order"
scenario{ name = "lock_order_no_deadlock" }
local a = lock{ name = "A", kind = "mutex" }
local b = lock{ name = "B", kind = "mutex" }
task{ name = "ab", run = function() down(a); down(b); compute(us(1)); up(b); up(a) end }
task{ name = "ba", start = ms(1), run = function() down(b); down(a); compute(us(1)); up(a); up(b) end }
