-- expect-exit: 2
-- expect-stderr: error_level0_toplevel\.lua(:[0-9]+)?: no position
-- FIXED (was pending): -- NO FILE (engine bug): error(msg, 0) -- and error(42), a number -- carry
-- no position, and the top-level path prints the message alone
-- ("lockmuseum: no position").  In a task the file is at least prefixed.
-- Fix: prefix "file:" (and the line from a message handler) whenever the
-- message does not start with a position of its own.
scenario{ name = "error_level0_toplevel" }
error("no position", 0)
