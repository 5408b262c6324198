ALTER TABLE "licenses" ADD COLUMN "max_seats" integer GENERATED ALWAYS AS (case when jsonb_typeof((config::jsonb) #> '{limits,maxSeats}') = 'number'
        then case when ((config::jsonb) #>> '{limits,maxSeats}')::numeric > 0
                   and ((config::jsonb) #>> '{limits,maxSeats}')::numeric % 1 = 0
             then least(((config::jsonb) #>> '{limits,maxSeats}')::numeric, 2147483647)::integer end end) STORED;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "live_seats" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "licenses" l SET "live_seats" = live.n
  FROM (SELECT "license_id", count(*)::integer AS n FROM "activations" WHERE "status" = 'active' GROUP BY "license_id") live
 WHERE l."id" = live."license_id";
