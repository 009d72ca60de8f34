-- expect-exit: 2
-- command: compare
-- args: --seeds 9223372036854775807..9223372036854775808
-- expect-stderr: each a whole number from 0 to 9223372036854775807
-- compare --seeds says the one seed range (issue 28).
scenario{ name = "compare_seeds_past_int64" }
