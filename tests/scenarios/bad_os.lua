-- expect-exit: 2
-- expect-stderr: bad_os\.lua:5: attempt to index a nil value \(global 'os'\)
-- No os library, even from a task.
scenario{ name = "bad_os" }
task{ name = "t", run = function() os.execute("true") end }
