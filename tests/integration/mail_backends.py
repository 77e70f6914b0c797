"""Mail servers for the outbox's tests: one that refuses every message, as an SMTP server
that is down or rejects the sender does, and one that takes them (Django's in-memory
backend, whose messages the tests read in ``django.core.mail.outbox``)."""

from __future__ import annotations

import smtplib
from typing import Any

from django.core.mail.backends.base import BaseEmailBackend


class Refusing(BaseEmailBackend):
    def send_messages(self, email_messages: Any) -> int:
        raise smtplib.SMTPRecipientsRefused({"x@example.org": (550, b"mailbox unavailable")})


REFUSING = {"default": {"BACKEND": "mail_backends.Refusing"}}
TAKING = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
