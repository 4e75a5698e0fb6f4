ALTER TABLE "audit_log" ADD COLUMN "changes" jsonb;--> statement-breakpoint
-- What each write changed, field by field (server/kit/audit-changes.ts): a call's transaction
-- turns capture on (set_config('audit.capture', 'on', true)), and these statement triggers add the
-- rows each statement created, updated or deleted, as stored, to the transaction's 'audit.changes'
-- setting, up to 100 rows ('audit.partial' says some were left out, and the triggers then stop
-- looking, so a call of many statements pays for its first 100 rows only). The registrar reads them
-- before it writes the audit row. Outside a call (jobs, maintenance, a restore) capture is off and
-- the triggers return at once; the settings are transaction-local, so they end with it.
CREATE OR REPLACE FUNCTION audit_changes_keep(touched jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  kept jsonb;
BEGIN
  IF touched IS NULL THEN RETURN; END IF;
  kept := coalesce(nullif(current_setting('audit.changes', true), ''), '[]')::jsonb || touched;
  IF jsonb_array_length(kept) > 100 THEN
    kept := jsonb_path_query_array(kept, '$[0 to 99]');
    PERFORM set_config('audit.partial', 'on', true);
  END IF;
  PERFORM set_config('audit.changes', kept::text, true);
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_changes_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('audit.capture', true), '') <> 'on' OR coalesce(current_setting('audit.partial', true), '') = 'on' THEN RETURN NULL; END IF;
  PERFORM audit_changes_keep((SELECT jsonb_agg(jsonb_build_object('table', TG_TABLE_NAME, 'op', 'create', 'new', to_jsonb(r))) FROM (SELECT * FROM new_rows LIMIT 101) r));
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_changes_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('audit.capture', true), '') <> 'on' OR coalesce(current_setting('audit.partial', true), '') = 'on' THEN RETURN NULL; END IF;
  PERFORM audit_changes_keep((SELECT jsonb_agg(jsonb_build_object('table', TG_TABLE_NAME, 'op', 'delete', 'old', to_jsonb(r))) FROM (SELECT * FROM old_rows LIMIT 101) r));
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- An update's rows before and after are paired by the table's key column, the trigger's argument.
CREATE OR REPLACE FUNCTION audit_changes_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched jsonb;
BEGIN
  IF coalesce(current_setting('audit.capture', true), '') <> 'on' OR coalesce(current_setting('audit.partial', true), '') = 'on' THEN RETURN NULL; END IF;
  EXECUTE format(
    'SELECT jsonb_agg(jsonb_build_object(''table'', %L, ''op'', ''update'', ''old'', to_jsonb(o), ''new'', to_jsonb(n))) FROM (SELECT * FROM old_rows LIMIT 101) o JOIN new_rows n ON n.%I = o.%I WHERE to_jsonb(o) IS DISTINCT FROM to_jsonb(n)',
    TG_TABLE_NAME, TG_ARGV[0], TG_ARGV[0]) INTO touched;
  PERFORM audit_changes_keep(touched);
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- Starts recording a table's changes; `key` is its one-column primary key. A later table is one
-- call in its migration, or a name in the kit's list of tables left out (server/kit/audit-changes.ts).
CREATE OR REPLACE FUNCTION audit_changes_watch(t text, key text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION audit_changes_insert()', t || '_audit_insert', t);
  EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION audit_changes_update(%L)', t || '_audit_update', t, key);
  EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION audit_changes_delete()', t || '_audit_delete', t);
END;
$$;--> statement-breakpoint
SELECT audit_changes_watch('admins', 'id');--> statement-breakpoint
SELECT audit_changes_watch('admin_passkeys', 'id');--> statement-breakpoint
SELECT audit_changes_watch('access_requests', 'id');--> statement-breakpoint
SELECT audit_changes_watch('brands', 'id');--> statement-breakpoint
SELECT audit_changes_watch('leads', 'id');--> statement-breakpoint
SELECT audit_changes_watch('contact_enquiries', 'id');--> statement-breakpoint
SELECT audit_changes_watch('categories', 'id');--> statement-breakpoint
SELECT audit_changes_watch('links', 'id');--> statement-breakpoint
SELECT audit_changes_watch('social_media', 'id');--> statement-breakpoint
SELECT audit_changes_watch('site_settings', 'id');--> statement-breakpoint
SELECT audit_changes_watch('restricted_countries', 'id');--> statement-breakpoint
SELECT audit_changes_watch('games', 'id');--> statement-breakpoint
SELECT audit_changes_watch('homepage_content', 'id');--> statement-breakpoint
SELECT audit_changes_watch('token_settings', 'id');--> statement-breakpoint
SELECT audit_changes_watch('email_templates', 'id');--> statement-breakpoint
SELECT audit_changes_watch('email_template_versions', 'id');--> statement-breakpoint
SELECT audit_changes_watch('newsletter_sends', 'id');--> statement-breakpoint
SELECT audit_changes_watch('promotions', 'id');--> statement-breakpoint
SELECT audit_changes_watch('saved_views', 'id');--> statement-breakpoint
SELECT audit_changes_watch('suppressed_addresses', 'address');
