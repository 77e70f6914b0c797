"""The client's address for login throttling, as the trusted proxies in front report it.

Each proxy appends the address it received the request from to ``X-Forwarded-For``, so
the list's right end is written by the proxies and its left end by whoever sent the
request, who may write anything. With N trusted proxies (``SILTFENCE_TRUSTED_PROXIES``),
the client is the N-th address from the right: the one the outermost trusted proxy saw.
With none, the header is ignored and the connection's own address is the client's.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _address(text: str) -> str | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None


def client_ip(request: HttpRequest) -> str | None:
    remote = request.META.get("REMOTE_ADDR")
    proxies = settings.SILTFENCE_TRUSTED_PROXIES
    if proxies <= 0:
        return remote
    hops = [
        part for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()
    ]
    if len(hops) < proxies:
        # The request did not pass through every trusted proxy: it came from the nearest
        # one or around them, so its own address is all that can be trusted.
        return remote
    return _address(hops[-proxies]) or remote
