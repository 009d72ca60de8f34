-- expect-exit: 2
-- expect-stderr: bad_syntax\.lua:6:
-- A syntax error names the file and line.
scenario{ name = "bad_syntax" }
task{ name = "t", run = function()
  compute(us(1)) +
end }
