"""The public register's order and search, served by indexes.

A page of the register is the newest permits first: an index in that order. Its search
by address goes from the sites found to their applications' ids: an index holding both.
The search finds a text anywhere in a permit number or a site address, in any case (Django's
``icontains``, ``UPPER(column) LIKE UPPER('%text%')``), which no B-tree serves; on
PostgreSQL a trigram index on the same expression does (pg_trgm, a trusted extension
that the database's owner may create). SQLite has no such index and needs none at the
size of a village: nothing is done there. Decision 23.
"""

from django.db import migrations, models

from siltfence.apps.audit.sql import for_vendor

POSTGRES = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    'CREATE INDEX IF NOT EXISTS permit_number_trgm_idx ON permits_permit USING gin '
    '((UPPER("number"::text)) gin_trgm_ops)',
    'CREATE INDEX IF NOT EXISTS site_address_trgm_idx ON permits_site USING gin '
    '((UPPER("address"::text)) gin_trgm_ops)',
]
# The extension stays: other databases' objects may use it.
POSTGRES_REVERSE = [
    "DROP INDEX IF EXISTS permit_number_trgm_idx",
    "DROP INDEX IF EXISTS site_address_trgm_idx",
]


class Migration(migrations.Migration):
    dependencies = [
        ("permits", "0004_fill_decision_due"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="permit",
            index=models.Index(fields=["-issued_on", "-id"], name="permit_register_idx"),
        ),
        migrations.AddIndex(
            model_name="application",
            index=models.Index(fields=["site", "id"], name="application_site_idx"),
        ),
        migrations.RunPython(
            for_vendor({"sqlite": [], "postgresql": POSTGRES}),
            for_vendor({"sqlite": [], "postgresql": POSTGRES_REVERSE}),
        ),
    ]
