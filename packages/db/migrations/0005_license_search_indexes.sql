DROP INDEX "licenses_by_issued";--> statement-breakpoint
DROP INDEX "licenses_by_company_issued";--> statement-breakpoint
DROP INDEX "licenses_by_template_issued";--> statement-breakpoint
DROP INDEX "licenses_by_status_issued";--> statement-breakpoint
CREATE INDEX "licenses_by_issued" ON "licenses" USING btree ("issued_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "licenses_by_company_issued" ON "licenses" USING btree ("company_id","issued_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "licenses_by_template_issued" ON "licenses" USING btree ("template_id","issued_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "licenses_by_status_issued" ON "licenses" USING btree ("status","issued_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"expires_at");