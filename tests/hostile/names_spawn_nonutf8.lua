-- expect-exit: 2
-- expect-stderr: names_spawn_nonutf8\.lua:6: spawn\{\}: 'name' is not valid UTF-8 text
-- A spawned task's name, checked at run time.
scenario{ name = "names_spawn_nonutf8" }
task{ name = "t", run = function()
  spawn{ name = "\xc3\x28", run = function() end }
end }
