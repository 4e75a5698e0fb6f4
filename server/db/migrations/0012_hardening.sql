CREATE TABLE "login_pair_failures" (
	"email" text NOT NULL,
	"address" text NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "login_pair_failures_email_address_pk" PRIMARY KEY("email","address")
);
--> statement-breakpoint
CREATE TABLE "otp_guesses" (
	"email" text PRIMARY KEY NOT NULL,
	"guesses" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "login_pair_failures_updated_at_idx" ON "login_pair_failures" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "otp_guesses_window_start_idx" ON "otp_guesses" USING btree ("window_start");