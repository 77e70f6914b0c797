"""The request of a view that reads ``request.htmx``: django-htmx's middleware sets it on
every request, and this type tells the type checker so (django-htmx's documented way)."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails
