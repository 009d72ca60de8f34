-- expect-exit: 2
-- expect-stderr: sandbox_package\.lua:5: attempt to index a nil value \(global 'package'\)
-- No package library: package.loaded, package.loadlib, package.cpath are out of reach.
scenario{ name = "sandbox_package" }
local f = package.loadlib("/lib/x86_64-linux-gnu/libc.so.6", "system")
