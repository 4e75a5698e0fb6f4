CREATE TABLE "trash" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"action" text NOT NULL,
	"kind" text NOT NULL,
	"record_id" text NOT NULL,
	"endpoint" text NOT NULL,
	"rows" jsonb NOT NULL,
	"files" text[] DEFAULT '{}'::text[] NOT NULL,
	"place" integer,
	"message" text NOT NULL,
	"deleted_by" text NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "trash_expires_at_idx" ON "trash" USING btree ("expires_at");