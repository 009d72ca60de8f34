-- expect-exit: 3
-- args: --era 2009 --cpus 2 --report json
-- expect-stdout: "outcome": "deadlock"
-- expect-stderr: deadlock
-- AB-BA: each task holds one mutex and waits for the other.
scenario{ name = "deadlock_abba" }
local a = lock{ name = "A", kind = "mutex" }
local b = lock{ name = "B", kind = "mutex" }
task{ name = "ab", run = function() down(a); compute(us(10)); down(b); up(b); up(a) end }
task{ name = "ba", run = function() down(b); compute(us(10)); down(a); up(a); up(b) end }
