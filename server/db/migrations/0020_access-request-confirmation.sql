-- An access request proves its mailbox before staff see it: the link's secret (as SHA-256) and
-- its expiry, and when it was confirmed. Requests made before this are left unconfirmed: nothing
-- proved their addresses, so they are no longer listed or approvable; their senders ask again.
DROP INDEX "access_requests_created_at_idx";--> statement-breakpoint
ALTER TABLE "access_requests" ADD COLUMN "confirm_token_hash" text;--> statement-breakpoint
ALTER TABLE "access_requests" ADD COLUMN "confirm_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "access_requests" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "access_requests_confirm_token_key" ON "access_requests" USING btree ("confirm_token_hash");--> statement-breakpoint
CREATE INDEX "access_requests_confirmed_idx" ON "access_requests" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "access_requests"."confirmed_at" is not null;