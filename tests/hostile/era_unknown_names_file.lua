-- expect-exit: 2
-- expect-stderr: era_unknown_names_file\.lua(:[0-9]+)?: .*unknown era
-- FIXED (was pending): -- NO FILE (engine bug): an unknown era in scenario{ era } says
-- "scenario{ era } '1800': unknown era (eras: ...)" without naming the
-- file (the era is resolved after loading, in session.c).
scenario{ name = "era_unknown_names_file", era = "1800" }
