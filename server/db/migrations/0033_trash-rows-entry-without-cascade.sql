ALTER TABLE "trash_rows" DROP CONSTRAINT "trash_rows_entry_trash_id_fk";
