DROP INDEX "audit_log_by_action_time";--> statement-breakpoint
CREATE INDEX "audit_log_by_action_time" ON "audit_log" USING btree ("action","occurred_at","id");