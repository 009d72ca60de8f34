-- expect-exit: 0
-- expect-stdout: outcome: completed
-- Legitimately accepted: integer values at the edges.  Variables, atomics
-- and counters are 64-bit and wrap around in two's complement, as the
-- kernel's atomic64_t does (it is built with -fno-strict-overflow); a
-- scenario may overflow them on purpose, and the run must neither crash
-- nor trip a sanitizer.
scenario{ name = "numbers_wraparound" }
local v = var{ name = "v", value = math.maxinteger }
local a = atomic{ name = "a", value = math.maxinteger }
local c = counter{ name = "c" }
local got = {}
task{ name = "t", run = function()
  got.add = add(v, 1)
  write(v, math.mininteger)
  got.add2 = add(v, -1)
  got.atomic = atomic_add_return(a, math.maxinteger)
  atomic_set(a, math.mininteger)
  atomic_dec(a)
  got.read = atomic_read(a)
  counter_add(c, math.maxinteger)
  counter_add(c, math.maxinteger)
  counter_add(c, math.mininteger)
  got.rand = rand(math.mininteger, math.maxinteger)
  compute(0)
end }
check(function()
  return got.add == math.mininteger and got.add2 == math.maxinteger and got.atomic == -2
    and got.read == math.maxinteger, "wrapped like the kernel"
end)
