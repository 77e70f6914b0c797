"""Fill in what is paid toward each application's fee, and whether staff corrected it,
from the payments and corrections already recorded (permits 0011 added the columns)."""

from decimal import Decimal

from django.db import migrations
from django.db.models import Sum


def fill(apps, schema_editor):
    Application = apps.get_model("permits", "Application")
    Payment = apps.get_model("payments", "Payment")
    FeeCorrection = apps.get_model("payments", "FeeCorrection")
    paid = (
        Payment.objects.filter(
            application__isnull=False, purpose="application_fee", correction__isnull=True
        )
        .values("application")
        .annotate(total=Sum("amount"))
    )
    for row in paid:
        Application.objects.filter(pk=row["application"]).update(
            fee_paid=Decimal(row["total"] or 0).quantize(Decimal("0.01"))
        )
    Application.objects.filter(
        pk__in=FeeCorrection.objects.values("application")
    ).update(fee_corrected=True)


class Migration(migrations.Migration):
    dependencies = [
        ("payments", "0001_initial"),
        ("permits", "0011_application_fee_kept"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
