ALTER TABLE "templates" ADD COLUMN "fingerprint_match" text DEFAULT 'fuzzy' NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "max_new_devices_per_window" integer;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "new_device_window_days" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "fingerprint_match" text DEFAULT 'fuzzy' NOT NULL;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "max_new_devices_per_window" integer;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "new_device_window_days" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "device_budget_reset_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "device_budget_refused_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "activations" ADD COLUMN "components" jsonb;--> statement-breakpoint
ALTER TABLE "activations" ADD COLUMN "new_device" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "activations_new_devices_by_license" ON "activations" USING btree ("license_id","activated_at") WHERE "activations"."new_device";