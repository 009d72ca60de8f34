-- expect-exit: 0
-- expect-stdout: outcome: completed
-- FIXED (was pending): -- UNDEFINED BEHAVIOUR (engine bug).  atomic_dec_if_positive() on an atomic
-- holding math.mininteger computes a->value - 1 in int64_t (ops.c,
-- km_op_atomic, KM_ATOMIC_DEC_IF_POSITIVE): signed overflow.  The release
-- build happens to pass; the ASan/UBSan build (make sanitize) aborts with
-- "runtime error: signed integer overflow: -9223372036854775808 - 1".  The
-- same with atomic{ value = math.maxinteger } then atomic_inc().  Fix:
-- compare a->value > 0 (or use the uint64_t casts atomic_add_return uses).
scenario{ name = "numbers_atomic_dec_if_positive_min" }
local a = atomic{ name = "a", value = math.mininteger }
local b = atomic{ name = "b", value = math.maxinteger }
task{ name = "t", run = function()
  atomic_dec_if_positive(a)
  atomic_inc(b)
  atomic_dec_if_positive(b)
end }
