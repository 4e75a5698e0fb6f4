CREATE TABLE "mail_events_seen" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"address" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
