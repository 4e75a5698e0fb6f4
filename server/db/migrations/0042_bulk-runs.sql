CREATE TABLE "bulk_run_rows" (
	"run_id" text NOT NULL,
	"seq" integer NOT NULL,
	"record_id" text NOT NULL,
	"name" text NOT NULL,
	"before" jsonb,
	"outcome" text DEFAULT 'pending' NOT NULL,
	"trash" text,
	CONSTRAINT "bulk_run_rows_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
CREATE TABLE "bulk_runs" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"list" text NOT NULL,
	"action" text NOT NULL,
	"admin_id" text NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"total" integer NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"undo" text,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "bulk_run_rows" ADD CONSTRAINT "bulk_run_rows_run_id_bulk_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."bulk_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_runs_admin_idx" ON "bulk_runs" USING btree ("admin_id","created_at");