-- An Admin's key-prefix search answered from one index (issue 25 §6, docs/performance.md): the key prefix,
-- then the company (company_id = ANY(the Admin's subtree) is checked inside the index), then the order
-- (issued_at, id), so the page's ids and the count are index-only scans. It replaces the index on the key
-- alone, which it covers (same leading column, same operator class). Expand-safe (decision 0055): no
-- release names either index; the previous release's LIKE 'prefix%' uses the new one.
-- Building it locks the licenses table against writes for its duration (about 1.5 s per million licenses
-- on the reference machine). On a large table, build it first without the lock, under this name:
--   CREATE INDEX CONCURRENTLY licenses_by_key_prefix_company ON licenses
--     USING btree (license_key text_pattern_ops, company_id, issued_at, id);
-- and this migration then only drops the old one.
CREATE INDEX IF NOT EXISTS "licenses_by_key_prefix_company" ON "licenses" USING btree ("license_key" text_pattern_ops,"company_id","issued_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "licenses_by_key_prefix";
