-- Analytics at scale (decisions 0027 and 0028). Written by hand: drizzle-kit models neither partitioning
-- nor functions; the snapshot matches the schema files.

-- 1. Heartbeat records, range-partitioned by month on occurred_at. The primary key must hold the
--    partition key. A default partition catches rows no monthly partition covers yet, so a late partition
--    job can never fail a heartbeat; creating that month's partition moves them out of it.
ALTER TABLE "heartbeat_records" RENAME TO "heartbeat_records_unpartitioned";--> statement-breakpoint
ALTER INDEX "heartbeat_records_by_license_time" RENAME TO "heartbeat_records_unpartitioned_by_license_time";--> statement-breakpoint
CREATE TABLE "heartbeat_records" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"activation_id" uuid NOT NULL,
	"license_id" uuid NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	CONSTRAINT "heartbeat_records_id_occurred_at_pk" PRIMARY KEY("id","occurred_at")
) PARTITION BY RANGE ("occurred_at");--> statement-breakpoint
CREATE INDEX "heartbeat_records_by_license_time" ON "heartbeat_records" USING btree ("license_id","occurred_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "heartbeat_records_by_time" ON "heartbeat_records" USING brin ("occurred_at");--> statement-breakpoint
CREATE TABLE "heartbeat_records_default" PARTITION OF "heartbeat_records" DEFAULT;--> statement-breakpoint

-- The partition of the UTC month starting at month_start; moves that month's rows out of the default
-- partition first. Returns false when it already exists. Used by this migration and the partition job.
CREATE FUNCTION heartbeat_partition_create(month_start date) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  part text := 'heartbeat_records_p' || to_char(month_start, 'YYYYMM');
  lower_bound timestamptz := date_trunc('month', month_start)::timestamp AT TIME ZONE 'UTC';
  upper_bound timestamptz := (date_trunc('month', month_start) + interval '1 month')::timestamp AT TIME ZONE 'UTC';
BEGIN
  -- Two instances running the job at once take turns.
  PERFORM pg_advisory_xact_lock(4210771011);
  IF to_regclass(part) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE heartbeat_records INCLUDING DEFAULTS)', part);
  EXECUTE format(
    'WITH moved AS (DELETE FROM heartbeat_records_default WHERE occurred_at >= %L AND occurred_at < %L RETURNING *)
     INSERT INTO %I SELECT * FROM moved', lower_bound, upper_bound, part);
  EXECUTE format('ALTER TABLE heartbeat_records ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
    part, lower_bound, upper_bound);
  RETURN true;
END
$$;--> statement-breakpoint

-- Drops the monthly partitions that end at or before `cutoff` and the default partition's rows before it.
-- Returns the names of the partitions dropped.
CREATE FUNCTION heartbeat_partitions_drop_before(cutoff timestamptz) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  part text;
BEGIN
  PERFORM pg_advisory_xact_lock(4210771011);
  FOR part IN
    SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'heartbeat_records'::regclass
       AND c.relname ~ '^heartbeat_records_p[0-9]{6}$'
       AND (to_date(substr(c.relname, 20), 'YYYYMM') + interval '1 month')::timestamp AT TIME ZONE 'UTC' <= cutoff
     ORDER BY c.relname
  LOOP
    EXECUTE format('DROP TABLE %I', part);
    RETURN NEXT part;
  END LOOP;
  DELETE FROM heartbeat_records_default WHERE occurred_at < cutoff;
END
$$;--> statement-breakpoint

DO $$
DECLARE
  first_month date := date_trunc('month', coalesce(
    (SELECT min(occurred_at) FROM heartbeat_records_unpartitioned), now()) AT TIME ZONE 'UTC')::date;
  month date;
BEGIN
  month := first_month;
  WHILE month <= (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '2 months')::date LOOP
    PERFORM heartbeat_partition_create(month);
    month := (month + interval '1 month')::date;
  END LOOP;
END
$$;--> statement-breakpoint
INSERT INTO "heartbeat_records" ("id", "activation_id", "license_id", "occurred_at")
  SELECT "id", "activation_id", "license_id", "occurred_at" FROM "heartbeat_records_unpartitioned";--> statement-breakpoint
DROP TABLE "heartbeat_records_unpartitioned";--> statement-breakpoint

-- 2. Live activations per company and template without a join: the license's company and template,
--    copied when the activation is written.
ALTER TABLE "activations" ADD COLUMN "company_id" uuid;--> statement-breakpoint
ALTER TABLE "activations" ADD COLUMN "template_id" uuid;--> statement-breakpoint
UPDATE "activations" a SET "company_id" = l."company_id", "template_id" = l."template_id"
  FROM "licenses" l WHERE l."id" = a."license_id";--> statement-breakpoint
ALTER TABLE "activations" ALTER COLUMN "company_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "activations" ALTER COLUMN "template_id" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "activations_live_by_company_template" ON "activations" USING btree ("company_id","template_id") WHERE "activations"."status" = 'active';--> statement-breakpoint
CREATE INDEX "activations_by_activated" ON "activations" USING btree ("activated_at");--> statement-breakpoint

-- 3. Daily usage rollups, written by the rollup job for days that are over.
CREATE TABLE "usage_daily" (
	"day" date NOT NULL,
	"company_id" uuid NOT NULL,
	"activations" integer NOT NULL,
	"heartbeats" integer NOT NULL,
	"licenses_issued" integer NOT NULL,
	CONSTRAINT "usage_daily_day_company_id_pk" PRIMARY KEY("day","company_id")
);--> statement-breakpoint
CREATE TABLE "usage_rollup_state" (
	"singleton" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"rolled_through" date,
	CONSTRAINT "usage_rollup_state_single_row" CHECK ("usage_rollup_state"."singleton")
);--> statement-breakpoint
INSERT INTO "usage_rollup_state" ("singleton", "rolled_through") VALUES (true, NULL);
