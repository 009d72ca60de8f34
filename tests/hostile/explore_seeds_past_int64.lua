-- expect-exit: 2
-- command: explore
-- args: --seeds 9223372036854775807..9223372036854775808 --goal deadlock
-- expect-stderr: --seeds 9223372036854775807..9223372036854775808: a seed must be a whole number from 0 to 9223372036854775807
-- One seed range everywhere (issue 28): explore took seeds up to 2^64 - 1
-- that run --seed and compare --seeds refuse, so the replay command it
-- printed failed, such seeds printed negative, and "the lowest seed"
-- compared them signed, so the seed found depended on --jobs.
scenario{ name = "explore_seeds_past_int64" }
