-- expect-exit: 2
-- expect-stderr: error_number_toplevel\.lua(:[0-9]+)?: 42
-- error(42): the message names the file.
scenario{ name = "error_number_toplevel" }
error(42)
