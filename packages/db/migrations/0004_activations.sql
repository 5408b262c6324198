CREATE TABLE "heartbeat_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"activation_id" uuid NOT NULL,
	"license_id" uuid NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activations" ADD COLUMN "silence_reported_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "heartbeat_records" ADD CONSTRAINT "heartbeat_records_activation_id_activations_id_fk" FOREIGN KEY ("activation_id") REFERENCES "public"."activations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heartbeat_records" ADD CONSTRAINT "heartbeat_records_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "heartbeat_records_by_license_time" ON "heartbeat_records" USING btree ("license_id","occurred_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "activations_active_machine_key" ON "activations" USING btree ("license_id","hw_fingerprint") WHERE "activations"."status" = 'active';--> statement-breakpoint
CREATE INDEX "activations_silence_scan" ON "activations" USING btree (coalesce("last_heartbeat_at", "activated_at")) WHERE "activations"."status" = 'active' and "activations"."silence_reported_at" is null;