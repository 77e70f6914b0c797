"""Make control-plan revisions append-only in the database itself.

A save adds a revision; no revision is ever changed. UPDATE is always refused; DELETE is
refused unless the audit migration's purge window is open (the test suite opens it to
reset its database, the application never does).
"""

from django.db import migrations

from siltfence.apps.audit.sql import for_vendor

SQLITE = [
    """CREATE TRIGGER IF NOT EXISTS plans_controlplan_no_update
       BEFORE UPDATE ON plans_controlplan
       BEGIN SELECT RAISE(ABORT, 'control plan revisions are append-only: UPDATE refused'); END""",
    """CREATE TRIGGER IF NOT EXISTS plans_controlplan_no_delete
       BEFORE DELETE ON plans_controlplan
       WHEN (SELECT COUNT(*) FROM audit_purge_window) = 0
       BEGIN SELECT RAISE(ABORT, 'control plan revisions are append-only: DELETE refused'); END""",
]
SQLITE_REVERSE = [
    "DROP TRIGGER IF EXISTS plans_controlplan_no_update",
    "DROP TRIGGER IF EXISTS plans_controlplan_no_delete",
]
POSTGRES = [
    """CREATE OR REPLACE FUNCTION plans_controlplan_append_only() RETURNS trigger AS $$
       BEGIN
         IF TG_OP = 'UPDATE' OR NOT EXISTS (SELECT 1 FROM audit_purge_window) THEN
           RAISE EXCEPTION 'control plan revisions are append-only: % refused', TG_OP;
         END IF;
         RETURN OLD;
       END; $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER plans_controlplan_no_update_delete
       BEFORE UPDATE OR DELETE ON plans_controlplan
       FOR EACH ROW EXECUTE FUNCTION plans_controlplan_append_only()""",
    """CREATE TRIGGER plans_controlplan_no_truncate BEFORE TRUNCATE ON plans_controlplan
       FOR EACH STATEMENT EXECUTE FUNCTION plans_controlplan_append_only()""",
]
POSTGRES_REVERSE = [
    "DROP TRIGGER IF EXISTS plans_controlplan_no_update_delete ON plans_controlplan",
    "DROP TRIGGER IF EXISTS plans_controlplan_no_truncate ON plans_controlplan",
    "DROP FUNCTION IF EXISTS plans_controlplan_append_only()",
]


class Migration(migrations.Migration):
    dependencies = [("plans", "0001_initial"), ("audit", "0002_append_only")]

    operations = [
        migrations.RunPython(
            for_vendor({"sqlite": SQLITE, "postgresql": POSTGRES}),
            for_vendor({"sqlite": SQLITE_REVERSE, "postgresql": POSTGRES_REVERSE}),
        )
    ]
