ALTER TABLE "newsletter_recipients" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "promotion_deliveries" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "promotions" ADD COLUMN "excluded" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "restricted_country_rule" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "promotion_recipients_address_idx" ON "promotion_recipients" USING btree ("promotion_id",lower("email"),"lead_id");