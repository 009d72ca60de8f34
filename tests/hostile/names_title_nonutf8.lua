-- expect-exit: 2
-- expect-stderr: names_title_nonutf8\.lua:4: scenario\{\}: 'title' is not valid UTF-8 text
-- Free text must be UTF-8 too.
scenario{ name = "names_title_nonutf8", title = "\xff\xfe" }
