-- expect-exit: 0
-- expect-stdout: outcome: completed
-- atomic_dec_if_positive() on an atomic holding math.mininteger (and
-- atomic_inc() at math.maxinteger) must not overflow a signed integer:
-- the run completes, also under UBSan (make sanitize).
scenario{ name = "numbers_atomic_dec_if_positive_min" }
local a = atomic{ name = "a", value = math.mininteger }
local b = atomic{ name = "b", value = math.maxinteger }
task{ name = "t", run = function()
  atomic_dec_if_positive(a)
  atomic_inc(b)
  atomic_dec_if_positive(b)
end }
