-- expect-exit: 2
-- expect-stderr: numbers_ns_negative\.lua:5: ns\(-1\): not a duration
-- ns(-1).
scenario{ name = "numbers_ns_negative" }
local d = ns(-1)
