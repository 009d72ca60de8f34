-- expect-exit: 2
-- args: --max-instructions 18446744073709551616
-- expect-stderr: --max-instructions 18446744073709551616: must be a whole number
-- An instruction budget of 2^64 (wraps to 0, which would mean none).
scenario{ name = "absurd_max_instructions_overflow" }
