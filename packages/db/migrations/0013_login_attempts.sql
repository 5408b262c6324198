CREATE TABLE "login_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_key" text NOT NULL,
	"client_key" text NOT NULL,
	"succeeded" boolean NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP TABLE "auth_failures" CASCADE;--> statement-breakpoint
CREATE INDEX "login_attempts_by_account_time" ON "login_attempts" USING btree ("account_key","occurred_at");--> statement-breakpoint
CREATE INDEX "login_attempts_by_time" ON "login_attempts" USING btree ("occurred_at");