CREATE INDEX "leads_name_sort_idx" ON "leads" USING btree (lower("name"),"id");--> statement-breakpoint
CREATE INDEX "leads_email_sort_idx" ON "leads" USING btree (lower("email"),"id");