-- expect-exit: 2
-- args: --seed 9223372036854775808
-- expect-stderr: --seed 9223372036854775808: a seed must be a whole number from 0 to 9223372036854775807
-- A seed past 2^63 - 1.
scenario{ name = "absurd_seed_option_overflow" }
