-- expect-exit: 2
-- expect-stderr: error_level0_toplevel\.lua(:[0-9]+)?: no position
-- error(msg, 0) carries no position of its own: the message is still
-- prefixed with the file.
scenario{ name = "error_level0_toplevel" }
error("no position", 0)
