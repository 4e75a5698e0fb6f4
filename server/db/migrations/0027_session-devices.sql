ALTER TABLE "session_tokens" ADD COLUMN "token_version" integer;--> statement-breakpoint
ALTER TABLE "session_tokens" ADD COLUMN "device" text;--> statement-breakpoint
ALTER TABLE "session_tokens" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "session_tokens" ADD COLUMN "signed_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "session_tokens" ADD COLUMN "proved_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "session_tokens_admin_id_idx" ON "session_tokens" USING btree ("admin_id");