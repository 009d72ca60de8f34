-- expect-exit: 2
-- expect-stderr: message_names_other_file\.lua:8: /etc/passwd:1: syntax error$
-- error() with level 0 and a message that starts like a position: it was
-- printed as it was, naming a file that has nothing to do with the run.
-- FIXED: a message keeps its own position only if it names a chunk that
-- is running; any other gets the real file:line in front.
scenario{ name = "message_names_other_file" }
error("/etc/passwd:1: syntax error", 0)
