"""Make the audit table append-only in the database itself.

UPDATE and DELETE (and TRUNCATE on PostgreSQL) are refused by triggers, whatever the
client. The only way to remove rows is to open a purge window by inserting a row into
``audit_purge_window`` by hand, which needs the same database rights as dropping the
trigger; the application never writes there. The test suite opens it to reset its
database between tests that commit.
"""

from django.db import migrations

from siltfence.apps.audit.sql import for_vendor

SQLITE = [
    "CREATE TABLE IF NOT EXISTS audit_purge_window (opened_at TEXT NOT NULL)",
    """CREATE TRIGGER IF NOT EXISTS audit_event_no_update BEFORE UPDATE ON audit_auditevent
       BEGIN SELECT RAISE(ABORT, 'audit events are append-only: UPDATE refused'); END""",
    """CREATE TRIGGER IF NOT EXISTS audit_event_no_delete BEFORE DELETE ON audit_auditevent
       WHEN (SELECT COUNT(*) FROM audit_purge_window) = 0
       BEGIN SELECT RAISE(ABORT, 'audit events are append-only: DELETE refused'); END""",
]
SQLITE_REVERSE = [
    "DROP TRIGGER IF EXISTS audit_event_no_update",
    "DROP TRIGGER IF EXISTS audit_event_no_delete",
    "DROP TABLE IF EXISTS audit_purge_window",
]

POSTGRES = [
    "CREATE TABLE IF NOT EXISTS audit_purge_window (opened_at timestamptz NOT NULL)",
    """CREATE OR REPLACE FUNCTION audit_event_append_only() RETURNS trigger AS $$
       BEGIN
         IF TG_OP = 'UPDATE' OR NOT EXISTS (SELECT 1 FROM audit_purge_window) THEN
           RAISE EXCEPTION 'audit events are append-only: % refused', TG_OP;
         END IF;
         RETURN OLD;  -- a purge window is open: let the DELETE or TRUNCATE through
       END; $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER audit_event_no_update_delete BEFORE UPDATE OR DELETE ON audit_auditevent
       FOR EACH ROW EXECUTE FUNCTION audit_event_append_only()""",
    """CREATE TRIGGER audit_event_no_truncate BEFORE TRUNCATE ON audit_auditevent
       FOR EACH STATEMENT EXECUTE FUNCTION audit_event_append_only()""",
]
POSTGRES_REVERSE = [
    "DROP TRIGGER IF EXISTS audit_event_no_update_delete ON audit_auditevent",
    "DROP TRIGGER IF EXISTS audit_event_no_truncate ON audit_auditevent",
    "DROP FUNCTION IF EXISTS audit_event_append_only()",
    "DROP TABLE IF EXISTS audit_purge_window",
]


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_initial")]

    operations = [
        migrations.RunPython(
            for_vendor({"sqlite": SQLITE, "postgresql": POSTGRES}),
            for_vendor({"sqlite": SQLITE_REVERSE, "postgresql": POSTGRES_REVERSE}),
        )
    ]
