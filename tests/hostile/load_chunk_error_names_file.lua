-- expect-exit: 2
-- expect-stderr: load_chunk_error_names_file\.lua:[0-9]+: load:1: spoofed$
-- An error inside a load()ed chunk must name the scenario's file and the
-- line of the load() call, whatever chunk name the scenario asked for:
-- it once printed "lockmuseum: /etc/passwd:1: spoofed", naming a file
-- that has nothing to do with the run.
scenario{ name = "load_chunk_error_names_file" }
load("error('spoofed')", "@/etc/passwd")()
