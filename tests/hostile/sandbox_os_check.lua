-- expect-exit: 2
-- expect-stderr: sandbox_os_check\.lua:5: attempt to index a nil value \(global 'os'\)
-- No os library in a check() (os.getenv, os.time, os.remove...).
scenario{ name = "sandbox_os_check" }
check(function(report) return os.getenv("HOME") ~= nil end)
