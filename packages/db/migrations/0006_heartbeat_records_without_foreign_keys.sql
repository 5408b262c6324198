ALTER TABLE "heartbeat_records" DROP CONSTRAINT "heartbeat_records_activation_id_activations_id_fk";
--> statement-breakpoint
ALTER TABLE "heartbeat_records" DROP CONSTRAINT "heartbeat_records_license_id_licenses_id_fk";
