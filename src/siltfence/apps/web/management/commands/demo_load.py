"""Load the demo: both ordinances checked, and a demo administrator login printed."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from siltfence.core.ordinance.loader import load_all

DEMO_USERNAME = "demo-admin"
DEMO_PASSWORD = "silt-fence-demo-2026"


class Command(BaseCommand):
    help = "Check both ordinances load and create the demo administrator (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        for ordinance in load_all():
            self.stdout.write(
                f"Ordinance loaded: {ordinance.name} Ch. {ordinance.chapter} "
                f"({len(ordinance.sections)} sections, {len(ordinance.parameters)} parameters)"
            )
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=DEMO_USERNAME, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        self.stdout.write(
            self.style.SUCCESS(
                "\nsiltfence demo is ready at http://127.0.0.1:8000/\n"
                f"  Do I need a permit?  http://127.0.0.1:8000/\n"
                f"  Admin login          http://127.0.0.1:8000/admin/  "
                f"user {DEMO_USERNAME}  password {DEMO_PASSWORD}\n"
            )
        )
