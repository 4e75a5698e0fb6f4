CREATE TABLE "login_failures" (
	"email" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "login_failures_updated_at_idx" ON "login_failures" USING btree ("updated_at");--> statement-breakpoint
-- Added by hand to the generated file: carry running counts and locks over before their columns go,
-- so an upgrade does not hand an attacker a fresh set of tries (admins.email is already lower-case).
INSERT INTO "login_failures" ("email", "failures", "locked_until")
SELECT "email", "failed_logins", "locked_until" FROM "admins"
WHERE "failed_logins" > 0 OR "locked_until" > now();--> statement-breakpoint
ALTER TABLE "admins" DROP COLUMN "failed_logins";--> statement-breakpoint
ALTER TABLE "admins" DROP COLUMN "locked_until";