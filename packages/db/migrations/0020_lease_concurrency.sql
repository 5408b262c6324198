CREATE TABLE "lease_concurrency_daily" (
	"day" date NOT NULL,
	"company_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	"peak_leases" integer NOT NULL,
	"full_seconds" integer NOT NULL,
	CONSTRAINT "lease_concurrency_daily_day_company_id_template_id_pk" PRIMARY KEY("day","company_id","template_id")
);
--> statement-breakpoint
CREATE TABLE "lease_rollup_state" (
	"singleton" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"rolled_through" date,
	CONSTRAINT "lease_rollup_state_single_row" CHECK ("lease_rollup_state"."singleton")
);
--> statement-breakpoint
CREATE INDEX "lease_concurrency_daily_by_company" ON "lease_concurrency_daily" USING btree ("company_id","day");--> statement-breakpoint
CREATE INDEX "licenses_floating_seats" ON "licenses" USING btree ("company_id","template_id","max_seats") WHERE "licenses"."seat_model" = 'floating' and "licenses"."status" = 'Active';--> statement-breakpoint
CREATE INDEX "leases_by_expires" ON "leases" USING btree ("expires_at");--> statement-breakpoint
INSERT INTO "lease_rollup_state" ("singleton", "rolled_through") VALUES (true, NULL);