-- expect-exit: 2
-- expect-stderr: bad_dofile\.lua:5: attempt to call a nil value \(global 'dofile'\)
-- No dofile / loadfile.
scenario{ name = "bad_dofile" }
dofile("/etc/hostname")
