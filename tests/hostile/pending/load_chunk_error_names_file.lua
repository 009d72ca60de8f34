-- expect-exit: 2
-- expect-stderr: load_chunk_error_names_file\.lua:[0-9]+: .*spoofed
-- WRONG FILE (engine bug): an error inside a load()ed chunk is reported
-- with the chunk's name only, and the chunk name is the scenario's to
-- choose: this prints "lockmuseum: /etc/passwd:1: spoofed", naming a file
-- that has nothing to do with the run.  Fix: force chunk names (prefix
-- "=" and the scenario's file:line of the load() call), or prefix every
-- message that does not start with the scenario's path.
scenario{ name = "load_chunk_error_names_file" }
load("error('spoofed')", "@/etc/passwd")()
