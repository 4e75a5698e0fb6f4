DROP INDEX "trash_moving_record_key";--> statement-breakpoint
CREATE UNIQUE INDEX "trash_moving_record_key" ON "trash" USING btree ("kind",md5("record_id")) WHERE "trash"."state" <> 'kept';