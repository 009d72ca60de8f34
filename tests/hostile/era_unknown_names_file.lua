-- expect-exit: 2
-- expect-stderr: era_unknown_names_file\.lua(:[0-9]+)?: .*unknown era
-- An unknown era in scenario{ era }: the message names the file.
scenario{ name = "era_unknown_names_file", era = "1800" }
