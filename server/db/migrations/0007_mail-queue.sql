CREATE TABLE "mail_pace" (
	"server" text PRIMARY KEY NOT NULL,
	"next_slot_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "newsletter_recipients" (
	"send_id" text NOT NULL,
	"lead_id" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"mail_id" text,
	CONSTRAINT "newsletter_recipients_send_id_lead_id_pk" PRIMARY KEY("send_id","lead_id")
);
--> statement-breakpoint
CREATE TABLE "newsletter_sends" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"subject" text NOT NULL,
	"content" text NOT NULL,
	"created_by" text,
	"status" text DEFAULT 'sending' NOT NULL,
	"total" integer NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "subscribed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "subscribed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "unsubscribed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "country" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "template" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "send_group" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "body" text;--> statement-breakpoint
ALTER TABLE "newsletter_recipients" ADD CONSTRAINT "newsletter_recipients_send_id_newsletter_sends_id_fk" FOREIGN KEY ("send_id") REFERENCES "public"."newsletter_sends"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_recipients" ADD CONSTRAINT "newsletter_recipients_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD CONSTRAINT "newsletter_sends_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "newsletter_recipients_state_idx" ON "newsletter_recipients" USING btree ("send_id","state");--> statement-breakpoint
CREATE INDEX "newsletter_sends_created_at_idx" ON "newsletter_sends" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "leads_provider_idx" ON "leads" USING btree ("provider","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "leads_country_provider_idx" ON "leads" USING btree ("country","provider","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "leads_subscribed_idx" ON "leads" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "leads"."subscribed";--> statement-breakpoint
CREATE INDEX "mail_outbox_group_idx" ON "mail_outbox" USING btree ("send_group","status") WHERE "mail_outbox"."send_group" is not null;--> statement-breakpoint
-- Mails from before the queue: marked by what happened to them (their clear bodies are dropped by the next migration).
UPDATE "mail_outbox" SET "status" = CASE WHEN "sent_at" IS NOT NULL THEN 'sent' ELSE 'failed' END, "error" = CASE WHEN "sent_at" IS NULL THEN coalesce("error", 'not sent (from before the mail queue)') ELSE "error" END;
