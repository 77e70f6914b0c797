"""The stored duties' JSON is compressed with lz4 on PostgreSQL, where the server has it.

A permit's duties are about 13 kB of JSON, written again for every permit at each full
recompute: PostgreSQL's default compression (pglz) took a third of the time of writing
them, lz4 a fifth as much. A server built without lz4 keeps pglz; reading is the same
either way. SQLite has no such setting."""

from django.db import migrations

from siltfence.apps.audit.sql import for_vendor

POSTGRES = [
    """DO $$ BEGIN
         ALTER TABLE duties_permitduties ALTER COLUMN duties SET COMPRESSION lz4;
       EXCEPTION WHEN feature_not_supported THEN NULL;
       END $$""",
]
POSTGRES_REVERSE = [
    "ALTER TABLE duties_permitduties ALTER COLUMN duties SET COMPRESSION DEFAULT",
]


class Migration(migrations.Migration):
    dependencies = [
        ("duties", "0004_recompute_by_and_inputs"),
    ]

    operations = [
        migrations.RunPython(
            for_vendor({"sqlite": [], "postgresql": POSTGRES}),
            for_vendor({"sqlite": [], "postgresql": POSTGRES_REVERSE}),
        ),
    ]
