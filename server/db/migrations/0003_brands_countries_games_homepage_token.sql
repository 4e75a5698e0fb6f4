CREATE TABLE "brands" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"brandname" text NOT NULL,
	"type" text NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "games" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"category_id" text NOT NULL,
	"operatingsystem" text NOT NULL,
	"live_link" text NOT NULL,
	"images" text[] DEFAULT '{}'::text[] NOT NULL,
	"video" text DEFAULT '' NOT NULL,
	"preference" integer NOT NULL,
	"is_game_backend" boolean DEFAULT false NOT NULL,
	"freeze" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "homepage_content" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"title" text NOT NULL,
	"link" text NOT NULL,
	"image" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "restricted_countries" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"code" text NOT NULL,
	"country" text NOT NULL,
	"hide" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "token_settings" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"token_name" text DEFAULT '' NOT NULL,
	"price" numeric(30, 10) DEFAULT '0' NOT NULL,
	"product_id" text DEFAULT '' NOT NULL,
	"ticket_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "brand_id" text;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "homepage_cms_visible" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "brands_name_key" ON "brands" USING btree (lower("brandname"));--> statement-breakpoint
CREATE INDEX "brands_created_at_idx" ON "brands" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "games_preference_idx" ON "games" USING btree ("preference");--> statement-breakpoint
CREATE INDEX "games_category_idx" ON "games" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "games_title_trgm_idx" ON "games" USING gin (lower("title") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "homepage_content_created_at_idx" ON "homepage_content" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "restricted_countries_code_key" ON "restricted_countries" USING btree ("code");--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leads_brand_idx" ON "leads" USING btree ("brand_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);