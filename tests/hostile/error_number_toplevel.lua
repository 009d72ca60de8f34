-- expect-exit: 2
-- expect-stderr: error_number_toplevel\.lua(:[0-9]+)?: 42
-- FIXED (was pending): -- NO FILE (engine bug): error(42) prints "lockmuseum: 42".
scenario{ name = "error_number_toplevel" }
error(42)
