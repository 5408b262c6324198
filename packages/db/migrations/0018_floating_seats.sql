CREATE TABLE "leases" (
	"id" uuid NOT NULL,
	"span" integer DEFAULT 1 NOT NULL,
	"license_id" uuid NOT NULL,
	"activation_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	"acquired_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"borrowed_until" timestamp with time zone,
	"released_at" timestamp with time zone,
	"release_reason" text,
	"lapsed" boolean DEFAULT false NOT NULL,
	CONSTRAINT "leases_id_span_pk" PRIMARY KEY("id","span")
);
--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "seat_model" text DEFAULT 'nodeLocked' NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "lease_seconds" integer DEFAULT 900 NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "max_borrow_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "seat_model" text DEFAULT 'nodeLocked' NOT NULL;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "lease_seconds" integer DEFAULT 900 NOT NULL;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "max_borrow_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "seats_exhausted_published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "machine_limit" integer GENERATED ALWAYS AS (case when seat_model = 'floating' then case when jsonb_typeof((config::jsonb) #> '{limits,maxMachines}') = 'number'
        then case when ((config::jsonb) #>> '{limits,maxMachines}')::numeric > 0
                   and ((config::jsonb) #>> '{limits,maxMachines}')::numeric % 1 = 0
             then least(((config::jsonb) #>> '{limits,maxMachines}')::numeric, 2147483647)::integer end end else case when jsonb_typeof((config::jsonb) #> '{limits,maxSeats}') = 'number'
        then case when ((config::jsonb) #>> '{limits,maxSeats}')::numeric > 0
                   and ((config::jsonb) #>> '{limits,maxSeats}')::numeric % 1 = 0
             then least(((config::jsonb) #>> '{limits,maxSeats}')::numeric, 2147483647)::integer end end end) STORED;--> statement-breakpoint
ALTER TABLE "leases" ADD CONSTRAINT "leases_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leases" ADD CONSTRAINT "leases_activation_id_activations_id_fk" FOREIGN KEY ("activation_id") REFERENCES "public"."activations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leases_open_by_license" ON "leases" USING btree ("license_id") WHERE "leases"."released_at" is null and not "leases"."lapsed";--> statement-breakpoint
CREATE UNIQUE INDEX "leases_open_by_activation" ON "leases" USING btree ("activation_id") WHERE "leases"."released_at" is null and not "leases"."lapsed";--> statement-breakpoint
CREATE INDEX "leases_by_acquired" ON "leases" USING brin ("acquired_at");