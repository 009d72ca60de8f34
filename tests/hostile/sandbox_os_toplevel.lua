-- expect-exit: 2
-- expect-stderr: sandbox_os_toplevel\.lua:5: attempt to index a nil value \(global 'os'\)
-- No os.exit: a scenario cannot choose the exit status.
scenario{ name = "sandbox_os_toplevel" }
os.exit(0)
