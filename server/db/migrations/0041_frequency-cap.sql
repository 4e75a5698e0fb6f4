ALTER TABLE "site_settings" ADD COLUMN "frequency_cap_on" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "frequency_cap_messages" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "frequency_cap_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
CREATE INDEX "newsletter_recipients_lead_idx" ON "newsletter_recipients" USING btree ("lead_id","mail_id") WHERE "newsletter_recipients"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "promotion_deliveries_sent_idx" ON "promotion_deliveries" USING btree ("lead_id","sent_at") WHERE "promotion_deliveries"."status" = 'sent';