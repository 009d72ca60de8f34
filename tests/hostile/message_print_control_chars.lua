-- expect-exit: 0
-- expect-stderr: red \\x1b\[31mtext\\x07 bell \\x0d cr \\u009b csi
-- expect-stderr: log \\x1b\]0;title\\x07
-- print() and log() at the top level wrote the scenario's ESC, BEL, CR
-- and C1 CSI to stderr as they were: a scenario could retitle, clear or
-- recolour the terminal of whoever ran it.  FIXED: escaped on the way out.
scenario{ name = "message_print_control_chars" }
print("red \27[31mtext\7 bell \r cr \u{9b} csi")
log("log \27]0;title\7")
