CREATE TABLE "master_key_check" (
	"id" text PRIMARY KEY NOT NULL,
	"check_value" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "master_key_check_one_row" CHECK ("master_key_check"."id" = 'master')
);
