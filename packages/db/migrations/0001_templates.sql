CREATE TABLE "signing_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"template_id" uuid NOT NULL,
	"status" text NOT NULL,
	"public_key_hex" text NOT NULL,
	"private_key_sealed" text NOT NULL,
	"not_before" timestamp with time zone NOT NULL,
	"not_after" timestamp with time zone,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "template_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"template_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"config_schema" text NOT NULL,
	"defaults" text NOT NULL,
	"signing_key_id" uuid NOT NULL,
	"changelog" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "template_versions_template_version_key" UNIQUE("template_id","version")
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"product_code" text NOT NULL,
	"description" text,
	"default_offline_days" integer NOT NULL,
	"default_validity_days" integer NOT NULL,
	"status" text DEFAULT 'Active' NOT NULL,
	"current_version_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signing_keys" ADD CONSTRAINT "signing_keys_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_versions" ADD CONSTRAINT "template_versions_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_versions" ADD CONSTRAINT "template_versions_signing_key_id_signing_keys_id_fk" FOREIGN KEY ("signing_key_id") REFERENCES "public"."signing_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_current_version_id_template_versions_id_fk" FOREIGN KEY ("current_version_id") REFERENCES "public"."template_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "signing_keys_by_template" ON "signing_keys" USING btree ("template_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "signing_keys_one_active_per_template" ON "signing_keys" USING btree ("template_id") WHERE "signing_keys"."status" = 'Active';--> statement-breakpoint
CREATE UNIQUE INDEX "templates_product_code_key" ON "templates" USING btree (lower("product_code"));--> statement-breakpoint
CREATE INDEX "templates_by_created" ON "templates" USING btree ("created_at","id");