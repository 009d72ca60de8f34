-- expect-exit: 0
-- args: --report json
-- expect-stdout: "outcome": "completed"
-- Legitimately accepted: log() and print() of any bytes.  The log keeps
-- valid UTF-8 (bad bytes become '?', NULs spaces, lines are cut at 511
-- bytes), so the JSON report stays valid.
scenario{ name = "names_log_nonutf8" }
task{ name = "t", run = function()
  log("%s", "\xff\0\xfe" .. ("z"):rep(2000))
  print(("\xe9"):rep(600), {}, nil, 1.5)
end }
