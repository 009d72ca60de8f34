-- expect-exit: 2
-- expect-stderr: names_huge_scenario\.lua:4: scenario\{\}: 'name' must be 1 to 128 bytes long, got 1048576
-- A 1 MB scenario name.
scenario{ name = ("s"):rep(1 << 20) }
