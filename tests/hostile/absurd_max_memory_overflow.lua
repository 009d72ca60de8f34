-- expect-exit: 2
-- args: --max-memory 17179869184G
-- expect-stderr: --max-memory 17179869184G: must be a size
-- A memory budget whose byte count overflows 64 bits (16 Gi * 1 Gi = 2^64).
scenario{ name = "absurd_max_memory_overflow" }
