DROP INDEX "trash_rows_entry_idx";--> statement-breakpoint
ALTER TABLE "trash_rows" ADD COLUMN "seq" bigserial NOT NULL;--> statement-breakpoint
CREATE INDEX "trash_rows_entry_idx" ON "trash_rows" USING btree ("entry","part","seq");