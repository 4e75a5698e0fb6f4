-- A trash entry keeps each row a delete took as a row of its own (trash_rows), not all of them in
-- one jsonb value: a promotion sent to a million leads took a single value of some 330 MB (above
-- jsonb's limit), built in the server's memory. Entries of deletes kept the old way cannot be
-- undone by the new code: they are dropped (their window is seconds; the upload sweep removes
-- their files).
CREATE TABLE "trash_rows" (
	"entry" text NOT NULL,
	"part" integer NOT NULL,
	"row" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trash_rows" ADD CONSTRAINT "trash_rows_entry_trash_id_fk" FOREIGN KEY ("entry") REFERENCES "public"."trash"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trash_rows_entry_idx" ON "trash_rows" USING btree ("entry","part");--> statement-breakpoint
DELETE FROM "trash" WHERE "action" = 'delete';