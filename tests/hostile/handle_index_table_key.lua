-- expect-exit: 2
-- expect-stderr: handle_index_table_key\.lua:6: bad argument #2 to 'index' \(string expected, got table\)
-- Indexing a handle with a table.
scenario{ name = "handle_index_table_key" }
local v = var{ name = "v" }
local x = v[{}]
