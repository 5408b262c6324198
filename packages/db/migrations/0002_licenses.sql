CREATE TABLE "activations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"license_id" uuid NOT NULL,
	"hw_fingerprint" text,
	"machine_name" text,
	"status" text NOT NULL,
	"activated_at" timestamp with time zone NOT NULL,
	"last_heartbeat_at" timestamp with time zone,
	"deactivated_at" timestamp with time zone,
	"client_ip" text
);
--> statement-breakpoint
CREATE TABLE "licenses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"license_key" text NOT NULL,
	"company_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	"template_version_id" uuid,
	"signing_key_id" uuid NOT NULL,
	"status" text NOT NULL,
	"config" text NOT NULL,
	"offline_days" integer NOT NULL,
	"current_version" integer DEFAULT 1 NOT NULL,
	"token" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"activated_at" timestamp with time zone,
	"last_heartbeat_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revocation_reason" text,
	"is_trial" boolean NOT NULL,
	"hw_binding" text NOT NULL,
	"hw_fingerprint" text,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_type" text NOT NULL,
	"data" jsonb NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"principal" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer NOT NULL,
	"response_body" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY("principal","key")
);
--> statement-breakpoint
ALTER TABLE "activations" ADD CONSTRAINT "activations_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_template_version_id_template_versions_id_fk" FOREIGN KEY ("template_version_id") REFERENCES "public"."template_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_signing_key_id_signing_keys_id_fk" FOREIGN KEY ("signing_key_id") REFERENCES "public"."signing_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activations_by_license_status" ON "activations" USING btree ("license_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "licenses_license_key_key" ON "licenses" USING btree ("license_key");--> statement-breakpoint
CREATE INDEX "licenses_by_key_prefix" ON "licenses" USING btree ("license_key" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "licenses_by_issued" ON "licenses" USING btree ("issued_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "licenses_by_company_issued" ON "licenses" USING btree ("company_id","issued_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "licenses_by_template_issued" ON "licenses" USING btree ("template_id","issued_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "licenses_by_status_issued" ON "licenses" USING btree ("status","issued_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "licenses_by_expiry" ON "licenses" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "outbox_events_unprocessed" ON "outbox_events" USING btree ("occurred_at","id") WHERE "outbox_events"."processed_at" is null;