CREATE TABLE "link_changes" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"requested_by" text NOT NULL,
	"endpoint" text NOT NULL,
	"input" jsonb NOT NULL,
	"files" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"record_id" text DEFAULT '' NOT NULL,
	"changes" jsonb NOT NULL,
	"fields" text[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "two_admin_links" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "link_changes" ADD CONSTRAINT "link_changes_requested_by_admins_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "link_changes_requested_at_idx" ON "link_changes" USING btree ("created_at");