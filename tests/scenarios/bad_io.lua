-- expect-exit: 2
-- expect-stderr: bad_io\.lua:5: attempt to index a nil value \(global 'io'\)
-- No io library in the sandbox.
scenario{ name = "bad_io" }
local f = io.open("/etc/passwd")
