-- The rows a render of one scope reads: Engram's query for it (PgReads.listScopes). :entries is 50 or 500.
select scope, name, content, meta::text, hash, updated from entry
 where store_id = 'render-' || :entries and scope = any('{user}') order by scope, name;
