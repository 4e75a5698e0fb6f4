CREATE TABLE "row_counts" (
	"table_name" text PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL,
	"generation" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Exact counts kept by the writes themselves (a million leads): one statement trigger
-- per write adds or removes the rows it touched, in the writing transaction, and every write moves
-- the table's generation on. Lists read the count from here instead of counting the table.
CREATE OR REPLACE FUNCTION row_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE row_counts SET n = n + (SELECT count(*) FROM new_rows), generation = generation + 1 WHERE table_name = TG_TABLE_NAME;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION row_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE row_counts SET n = n - (SELECT count(*) FROM old_rows), generation = generation + 1 WHERE table_name = TG_TABLE_NAME;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION row_counts_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE row_counts SET n = 0, generation = generation + 1 WHERE table_name = TG_TABLE_NAME;
  ELSE
    UPDATE row_counts SET generation = generation + 1 WHERE table_name = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- Starts counting a table: its count now, and its triggers. A later table is one call in its migration.
CREATE OR REPLACE FUNCTION row_counts_track(t text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('LOCK TABLE %I IN SHARE MODE', t);
  EXECUTE format('INSERT INTO row_counts (table_name, n) SELECT %L, count(*) FROM %I ON CONFLICT (table_name) DO UPDATE SET n = excluded.n, generation = row_counts.generation + 1', t, t);
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_insert()', t || '_count_insert', t);
  EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_delete()', t || '_count_delete', t);
  EXECUTE format('CREATE TRIGGER %I AFTER UPDATE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION row_counts_touch()', t || '_count_touch', t);
END;
$$;--> statement-breakpoint
SELECT row_counts_track('leads');--> statement-breakpoint
SELECT row_counts_track('contact_enquiries');--> statement-breakpoint
SELECT row_counts_track('games');--> statement-breakpoint
SELECT row_counts_track('links');--> statement-breakpoint
SELECT row_counts_track('promotions');
