"""What the rain record tells the apps above it, which it does not import: new rain was
just recorded. The duties app answers by writing it onto the permits at once, not at the
next morning's sweep (docs/decisions/0049-lower-apps-signal-higher-ones.md).
"""

from __future__ import annotations

import datetime

from django.dispatch import Signal

from siltfence.apps.rain.models import Station

# Sent by an import (the staff's upload, its worker, ``manage.py rain_import``) and by a day
# entered at a village's gauge, once the rain is written, with ``stations`` (their IDs) and
# the ``first`` and ``last`` day written. Each receiver returns what the rain changed, in
# words. Receivers run at once, where it is sent (not on commit), and an error in one
# reaches the sender.
rain_recorded = Signal()


def rain_recorded_send(*, stations: list[str], first: datetime.date, last: datetime.date) -> str:
    """Tell the receivers of ``rain_recorded`` of new rain; what they say it changed on the
    permits, in words ("" with no receiver)."""
    replies = rain_recorded.send(sender=Station, stations=stations, first=first, last=last)
    return " ".join(str(reply) for _, reply in replies if reply)
