CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"response_status_code" integer,
	"response_body" text,
	"last_error" text,
	"next_attempt_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"lease_token" uuid,
	"lease_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"secret_sealed" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"events" text[] NOT NULL,
	"last_delivery_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" = 'Pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_by_endpoint" ON "webhook_deliveries" USING btree ("endpoint_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_health" ON "webhook_deliveries" USING btree ("created_at","status");--> statement-breakpoint
-- Deliveries are born with their event: one row per active endpoint subscribed to its type, in the same
-- transaction, whichever code path wrote the event (docs/decisions/0024). The notification reaches every
-- listening server instance when that transaction commits, so a delivery leaves at once.
CREATE FUNCTION "webhook_deliveries_for_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "webhook_deliveries" ("endpoint_id", "event_id", "event_type", "payload", "status", "next_attempt_at", "created_at")
  SELECT e."id", NEW."id", NEW."event_type",
         jsonb_build_object(
           'event', NEW."event_type",
           'occurredAt', to_char(NEW."occurred_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'data', NEW."data"),
         'Pending', NEW."occurred_at", NEW."occurred_at"
    FROM "webhook_endpoints" e
   WHERE e."is_active" AND NEW."event_type" = ANY (e."events");
  IF FOUND THEN
    PERFORM pg_notify('webhook_deliveries', '');
  END IF;
  NEW."processed_at" := NEW."occurred_at";
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "outbox_events_webhook_deliveries" BEFORE INSERT ON "outbox_events"
  FOR EACH ROW EXECUTE FUNCTION "webhook_deliveries_for_event"();
