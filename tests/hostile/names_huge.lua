-- expect-exit: 2
-- expect-stderr: names_huge\.lua:5: task\{\}: 'name' must be 1 to 128 bytes long, got 1048576
-- A 1 MB name is refused, not truncated.
scenario{ name = "names_huge" }
task{ name = ("n"):rep(1 << 20), run = function() end }
