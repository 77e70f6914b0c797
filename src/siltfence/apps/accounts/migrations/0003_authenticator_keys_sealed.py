"""Encrypt the authenticator apps' keys already stored in clear (decision 33).

django-otp's ``otp_totp_totpdevice.key`` column is 80 characters, for a key in hex; a
sealed key (a Fernet token) is up to 140. The column is widened first (its model's state
is django-otp's and stays as it is: Django does not check a length on save). Then every
key still in hex is sealed under ``SILTFENCE_SECOND_FACTOR_KEY``. A database with no
authenticator at all needs no key here. Reversed, the keys are decrypted back to hex and
the column narrowed again.
"""

from django.db import migrations, models

SEALED_MAX_LENGTH = 255
HEX_MAX_LENGTH = 80


def _key_column(apps, schema_editor, *, before, after):
    device = apps.get_model("otp_totp", "TOTPDevice")
    name, _path, args, kwargs = device._meta.get_field("key").deconstruct()

    def width(length):
        field = models.CharField(*args, **{**kwargs, "max_length": length})
        field.set_attributes_from_name(name)
        field.model = device
        return field

    schema_editor.alter_field(device, width(before), width(after))


def widen(apps, schema_editor):
    _key_column(apps, schema_editor, before=HEX_MAX_LENGTH, after=SEALED_MAX_LENGTH)


def narrow(apps, schema_editor):
    _key_column(apps, schema_editor, before=SEALED_MAX_LENGTH, after=HEX_MAX_LENGTH)


def seal(apps, schema_editor):
    from siltfence.apps.accounts.seeds import SeedUnreadable, seed_is_sealed, seed_reseal

    device = apps.get_model("otp_totp", "TOTPDevice")
    rows = device.objects.using(schema_editor.connection.alias)
    for pk, key in rows.order_by("pk").values_list("pk", "key"):
        if seed_is_sealed(key):
            continue
        try:
            sealed = seed_reseal(key)
        except SeedUnreadable as error:
            raise RuntimeError(f"otp_totp.TOTPDevice {pk}: {error}") from None
        rows.filter(pk=pk).update(key=sealed)


def unseal(apps, schema_editor):
    from siltfence.apps.accounts.seeds import SeedUnreadable, seed_is_sealed, seed_open

    device = apps.get_model("otp_totp", "TOTPDevice")
    rows = device.objects.using(schema_editor.connection.alias)
    for pk, key in rows.order_by("pk").values_list("pk", "key"):
        if not seed_is_sealed(key):
            continue
        try:
            plain = seed_open(key).hex()
        except SeedUnreadable as error:
            raise RuntimeError(f"otp_totp.TOTPDevice {pk}: {error}") from None
        rows.filter(pk=pk).update(key=plain)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_sign_in_failures"),
        ("otp_totp", "0003_add_timestamps"),
    ]

    operations = [
        migrations.RunPython(widen, narrow, elidable=False),
        migrations.RunPython(seal, unseal, elidable=False),
    ]
