-- expect-exit: 2
-- expect-stderr: sandbox_warn\.lua:5: attempt to call a nil value \(global 'warn'\)
-- warn() is removed (it writes to stderr behind the host's back).
scenario{ name = "sandbox_warn" }
warn("@on")
