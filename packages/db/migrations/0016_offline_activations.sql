CREATE TABLE "offline_requests" (
	"license_id" uuid NOT NULL,
	"nonce" text NOT NULL,
	"activation_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "offline_requests_license_id_nonce_pk" PRIMARY KEY("license_id","nonce")
);
--> statement-breakpoint
DROP INDEX "activations_unreported_live";--> statement-breakpoint
ALTER TABLE "activations" ADD COLUMN "mode" text DEFAULT 'online' NOT NULL;--> statement-breakpoint
ALTER TABLE "activations" ADD COLUMN "offline_nonce" text;--> statement-breakpoint
ALTER TABLE "offline_requests" ADD CONSTRAINT "offline_requests_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_requests" ADD CONSTRAINT "offline_requests_activation_id_activations_id_fk" FOREIGN KEY ("activation_id") REFERENCES "public"."activations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activations_unreported_live" ON "activations" USING btree ("license_id") WHERE "activations"."status" = 'active' and "activations"."silence_reported_at" is null and "activations"."mode" = 'online';