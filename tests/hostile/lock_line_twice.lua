-- expect-exit: 2
-- expect-stderr: lock_line_twice\.lua:6: lock\{\}: line 'node' holds lock 'a' already; one lock a line
-- Two locks on one cache line: the model keeps one lock word a line.
scenario{ name = "lock_line_twice" }
lock{ name = "a", kind = "spinlock", line = "node" }
lock{ name = "b", kind = "spinlock", line = "node" }
