ALTER TABLE "newsletter_sends" ADD COLUMN "scheduled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD COLUMN "audience" jsonb;--> statement-breakpoint
ALTER TABLE "promotions" ADD COLUMN "scheduled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "promotions" ADD COLUMN "audience" jsonb;