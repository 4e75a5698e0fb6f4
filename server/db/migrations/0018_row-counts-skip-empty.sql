-- A statement that touched no row (a delete or an edit of an id that is not there) writes nothing
-- to row_counts: a refused call must leave every table as it was, and a count or a generation
-- moved by nothing would only throw away kept counts and deep-page keys.
CREATE OR REPLACE FUNCTION row_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE added bigint;
BEGIN
  SELECT count(*) INTO added FROM new_rows;
  IF added > 0 THEN
    UPDATE row_counts SET n = n + added, generation = generation + 1 WHERE table_name = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION row_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE removed bigint;
BEGIN
  SELECT count(*) INTO removed FROM old_rows;
  IF removed > 0 THEN
    UPDATE row_counts SET n = n - removed, generation = generation + 1 WHERE table_name = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION row_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows) THEN
    UPDATE row_counts SET generation = generation + 1 WHERE table_name = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION row_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE row_counts SET n = 0, generation = generation + 1 WHERE table_name = TG_TABLE_NAME;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- Updates learn which rows they touched from a transition table, which a trigger for two events
-- cannot have: UPDATE and TRUNCATE get a trigger each.
CREATE OR REPLACE FUNCTION row_counts_track(t text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('LOCK TABLE %I IN SHARE MODE', t);
  EXECUTE format('INSERT INTO row_counts (table_name, n) SELECT %L, count(*) FROM %I ON CONFLICT (table_name) DO UPDATE SET n = excluded.n, generation = row_counts.generation + 1', t, t);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', t || '_count_insert', t);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', t || '_count_delete', t);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', t || '_count_touch', t);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', t || '_count_update', t);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', t || '_count_truncate', t);
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_insert()', t || '_count_insert', t);
  EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_delete()', t || '_count_delete', t);
  EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_update()', t || '_count_update', t);
  EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION row_counts_truncate()', t || '_count_truncate', t);
END;
$$;--> statement-breakpoint
SELECT row_counts_track(table_name) FROM row_counts ORDER BY table_name;--> statement-breakpoint
DROP FUNCTION row_counts_touch();
