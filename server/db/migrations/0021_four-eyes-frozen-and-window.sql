-- Four eyes covers what is actually sent: a newsletter keeps the template it was requested with,
-- and every mass send request is recorded with its recipients, so a requester's sends within the
-- window add up against the threshold. Sends made before this keep the template active now.
CREATE TABLE "send_requests" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"admin_id" text,
	"recipients" integer NOT NULL,
	"ref" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD COLUMN "template_content" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "send_requests" ADD CONSTRAINT "send_requests_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "send_requests_admin_at_idx" ON "send_requests" USING btree ("admin_id","created_at");--> statement-breakpoint
CREATE INDEX "send_requests_ref_idx" ON "send_requests" USING btree ("ref");--> statement-breakpoint
UPDATE "newsletter_sends" SET "template_content" = coalesce((SELECT "content" FROM "email_templates" WHERE "identifier" = 'newsletter' AND "status" = 'active' LIMIT 1), '');
