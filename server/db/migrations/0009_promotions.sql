CREATE TABLE "lead_notifications" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lead_id" text NOT NULL,
	"promotion_id" text NOT NULL,
	"round" integer NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"image" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "promotion_deliveries" (
	"promotion_id" text NOT NULL,
	"lead_id" text NOT NULL,
	"round" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"batch_id" text,
	CONSTRAINT "promotion_deliveries_promotion_id_lead_id_round_pk" PRIMARY KEY("promotion_id","lead_id","round")
);
--> statement-breakpoint
CREATE TABLE "promotion_recipients" (
	"promotion_id" text NOT NULL,
	"lead_id" text NOT NULL,
	"email" text NOT NULL,
	CONSTRAINT "promotion_recipients_promotion_id_lead_id_pk" PRIMARY KEY("promotion_id","lead_id")
);
--> statement-breakpoint
CREATE TABLE "promotions" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"image" text DEFAULT '' NOT NULL,
	"selectall" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"round" integer DEFAULT 1 NOT NULL,
	"recipient_count" integer NOT NULL,
	"total" integer NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"last_sent_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "lead_notifications" ADD CONSTRAINT "lead_notifications_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_notifications" ADD CONSTRAINT "lead_notifications_promotion_id_promotions_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_deliveries" ADD CONSTRAINT "promotion_deliveries_promotion_id_promotions_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_recipients" ADD CONSTRAINT "promotion_recipients_promotion_id_promotions_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lead_notifications_delivery_key" ON "lead_notifications" USING btree ("promotion_id","lead_id","round");--> statement-breakpoint
CREATE INDEX "lead_notifications_lead_idx" ON "lead_notifications" USING btree ("lead_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "promotion_deliveries_pending_idx" ON "promotion_deliveries" USING btree ("promotion_id","round","batch_id","next_attempt_at") WHERE "promotion_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "promotion_deliveries_round_status_idx" ON "promotion_deliveries" USING btree ("promotion_id","round","status");--> statement-breakpoint
CREATE INDEX "promotion_recipients_email_idx" ON "promotion_recipients" USING btree ("promotion_id","email","lead_id");--> statement-breakpoint
CREATE INDEX "promotions_created_at_idx" ON "promotions" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);