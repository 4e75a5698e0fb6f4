CREATE TABLE "access_requests" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "links" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"url" text NOT NULL,
	"preference" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_settings" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"version" text DEFAULT '' NOT NULL,
	"contact_person" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"sitename" text DEFAULT '' NOT NULL,
	"site_description" text DEFAULT '' NOT NULL,
	"phone_number" text DEFAULT '' NOT NULL,
	"mobile_number" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"google_analytics" text DEFAULT '' NOT NULL,
	"social_link1" text DEFAULT '' NOT NULL,
	"social_link2" text DEFAULT '' NOT NULL,
	"social_link3" text DEFAULT '' NOT NULL,
	"social_link4" text DEFAULT '' NOT NULL,
	"social_link5" text DEFAULT '' NOT NULL,
	"reg_code" text DEFAULT '' NOT NULL,
	"company_info_link" text DEFAULT '' NOT NULL,
	"license_info_link" text DEFAULT '' NOT NULL,
	"copyright_text" text DEFAULT '' NOT NULL,
	"sitelogo" text DEFAULT '' NOT NULL,
	"forcedliq" text DEFAULT 'Disable' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "social_media" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"discord_link" text DEFAULT '' NOT NULL,
	"twitter_link" text DEFAULT '' NOT NULL,
	"facebook_link" text DEFAULT '' NOT NULL,
	"instagram_link" text DEFAULT '' NOT NULL,
	"telegram_link" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "access_requests_email_key" ON "access_requests" USING btree ("email");--> statement-breakpoint
CREATE INDEX "access_requests_created_at_idx" ON "access_requests" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "links_kind_preference_idx" ON "links" USING btree ("kind","preference");