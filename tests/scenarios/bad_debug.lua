-- expect-exit: 2
-- expect-stderr: bad_debug\.lua:5: attempt to index a nil value \(global 'debug'\)
-- No debug library.
scenario{ name = "bad_debug" }
debug.sethook()
