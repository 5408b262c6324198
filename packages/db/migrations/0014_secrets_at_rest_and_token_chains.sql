ALTER TABLE "mail_outbox" ALTER COLUMN "text" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "root_user_id" uuid;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "parent_token_id" uuid;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_root_user_id_users_id_fk" FOREIGN KEY ("root_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_parent_token_id_api_tokens_id_fk" FOREIGN KEY ("parent_token_id") REFERENCES "public"."api_tokens"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_tokens_by_root_user" ON "api_tokens" USING btree ("root_user_id");--> statement-breakpoint
CREATE INDEX "api_tokens_by_parent" ON "api_tokens" USING btree ("parent_token_id");--> statement-breakpoint
CREATE INDEX "mail_outbox_by_created_at" ON "mail_outbox" USING btree ("created_at");--> statement-breakpoint
-- The outbox keeps no token (docs/security.md): a mail SMTP took keeps no body, any other loses its link's token.
UPDATE "mail_outbox" SET "text" = NULL WHERE "status" = 'sent';--> statement-breakpoint
UPDATE "mail_outbox" SET "text" = regexp_replace("text", '([?&]token=)[A-Za-z0-9_-]+', '\1[removed]', 'g') WHERE "text" IS NOT NULL;--> statement-breakpoint
-- Token chains (decision 0037). A token a user made is the first link of its chain.
UPDATE "api_tokens" SET "root_user_id" = "created_by_user_id" WHERE "created_by_user_id" IS NOT NULL;--> statement-breakpoint
-- A token made with a token: the audit row of its creation names the parent as "token:<prefix>"; used when
-- exactly one token has that prefix.
UPDATE "api_tokens" AS c SET "parent_token_id" = p."id"
  FROM "audit_log" AS a, "api_tokens" AS p
 WHERE c."created_by_user_id" IS NULL
   AND a."action" = 'api_token.created' AND a."entity_type" = 'api_token' AND a."entity_id" = c."id"::text
   AND a."actor_email" = 'token:' || p."prefix"
   AND p."id" <> c."id" AND p."created_at" <= c."created_at"
   AND (SELECT count(*) FROM "api_tokens" AS q WHERE q."prefix" = p."prefix") = 1;--> statement-breakpoint
-- Its root user is the first link's, and it expires no later than any ancestor (as new tokens are made).
WITH RECURSIVE "up" ("id", "ancestor_id") AS (
  SELECT "id", "parent_token_id" FROM "api_tokens" WHERE "parent_token_id" IS NOT NULL
  UNION
  SELECT "up"."id", p."parent_token_id" FROM "up" JOIN "api_tokens" AS p ON p."id" = "up"."ancestor_id"
   WHERE p."parent_token_id" IS NOT NULL
), "chain" AS (
  SELECT "up"."id", min(a."expires_at") AS "expires_at",
         max(CASE WHEN a."parent_token_id" IS NULL THEN a."root_user_id"::text END)::uuid AS "root_user_id"
    FROM "up" JOIN "api_tokens" AS a ON a."id" = "up"."ancestor_id"
   GROUP BY "up"."id"
)
UPDATE "api_tokens" AS t
   SET "root_user_id" = "chain"."root_user_id", "expires_at" = least(t."expires_at", "chain"."expires_at")
  FROM "chain" WHERE t."id" = "chain"."id";--> statement-breakpoint
-- A chain already cut is revoked now, so the list shows what authentication enforces: the token's origin is
-- unknown, its root user is not active, or an ancestor is revoked. Each revocation has its audit row.
WITH RECURSIVE "up" ("id", "ancestor_id") AS (
  SELECT "id", "parent_token_id" FROM "api_tokens" WHERE "parent_token_id" IS NOT NULL
  UNION
  SELECT "up"."id", p."parent_token_id" FROM "up" JOIN "api_tokens" AS p ON p."id" = "up"."ancestor_id"
   WHERE p."parent_token_id" IS NOT NULL
), "revoked" AS (
  UPDATE "api_tokens" AS t SET "revoked_at" = now()
   WHERE t."revoked_at" IS NULL
     AND (NOT EXISTS (SELECT 1 FROM "users" AS u WHERE u."id" = t."root_user_id" AND u."status" = 'active')
          OR EXISTS (SELECT 1 FROM "up" JOIN "api_tokens" AS a ON a."id" = "up"."ancestor_id"
                      WHERE "up"."id" = t."id" AND a."revoked_at" IS NOT NULL))
  RETURNING t."id", t."name", t."company_id", t."prefix", t."root_user_id"
)
INSERT INTO "audit_log" ("action", "actor_email", "entity_type", "entity_id", "meta", "occurred_at")
SELECT 'api_token.revoked', NULL, 'api_token', "id"::text,
       jsonb_build_object('name', "name", 'companyId', "company_id", 'prefix', "prefix", 'reason',
         CASE WHEN "root_user_id" IS NULL THEN 'migration 0014: the user the token acts for is unknown'
              ELSE 'migration 0014: its user is not active or a token it was made with is revoked' END),
       now()
  FROM "revoked";
