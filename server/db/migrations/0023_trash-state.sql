ALTER TABLE "trash" ADD COLUMN "state" text DEFAULT 'kept' NOT NULL;--> statement-breakpoint
ALTER TABLE "trash" ADD COLUMN "mover" text;--> statement-breakpoint
ALTER TABLE "trash" ADD COLUMN "restored_by" text;--> statement-breakpoint
CREATE UNIQUE INDEX "trash_moving_record_key" ON "trash" USING btree ("kind","record_id") WHERE "trash"."state" <> 'kept';