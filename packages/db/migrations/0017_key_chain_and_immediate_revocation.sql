ALTER TABLE "signing_keys" ADD COLUMN "is_root" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "signing_keys" ADD COLUMN "certificate" text;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "revocation" text DEFAULT 'graceful' NOT NULL;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "revocation" text DEFAULT 'graceful' NOT NULL;--> statement-breakpoint
-- Each template's first key is its root: the key its shipped programs were built with (decision 0049). The
-- keys rotated in before certificates existed are certified by the service when first needed.
UPDATE "signing_keys" SET "is_root" = true WHERE "id" IN (
  SELECT DISTINCT ON ("template_id") "id" FROM "signing_keys" ORDER BY "template_id", "created_at", "id"
);--> statement-breakpoint
CREATE UNIQUE INDEX "signing_keys_one_root_per_template" ON "signing_keys" USING btree ("template_id") WHERE "signing_keys"."is_root";--> statement-breakpoint
CREATE INDEX "licenses_revoked_by_template" ON "licenses" USING btree ("template_id","revoked_at","id") WHERE "licenses"."status" = 'Revoked' and "licenses"."revocation" = 'immediate';