ALTER TABLE "newsletter_sends" ADD COLUMN "approval_requested_by" text;--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD COLUMN "approval_decided_by" text;--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD COLUMN "approval_decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "promotions" ADD COLUMN "approval_requested_by" text;--> statement-breakpoint
ALTER TABLE "promotions" ADD COLUMN "approval_decided_by" text;--> statement-breakpoint
ALTER TABLE "promotions" ADD COLUMN "approval_decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD CONSTRAINT "newsletter_sends_approval_requested_by_admins_id_fk" FOREIGN KEY ("approval_requested_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD CONSTRAINT "newsletter_sends_approval_decided_by_admins_id_fk" FOREIGN KEY ("approval_decided_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_approval_requested_by_admins_id_fk" FOREIGN KEY ("approval_requested_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_approval_decided_by_admins_id_fk" FOREIGN KEY ("approval_decided_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;