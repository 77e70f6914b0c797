"""Anchor the audit chain outside the database.

The hash chain alone shows that rows were edited or removed only while the rest of the
chain is left as it was: someone with the database file can edit a row and recompute
every later hash, or delete the last rows and roll the chain head back, and the chain is
again consistent. A **checkpoint** records the chain head (how many events, the last
event's hash, when) outside the database, signed with an HMAC whose key is not in the
database either (``SILTFENCE_AUDIT_KEY``). ``siltfence audit verify`` then also checks
that the chain still holds, at each checkpoint's count, the hash the checkpoint recorded:
a rewritten history or a removed tail no longer matches, and a forged checkpoint does not
carry a valid HMAC without the key.

Checkpoints are lines of JSON appended to a file (``SILTFENCE_AUDIT_CHECKPOINTS``), and
may also be emailed to the clerk (``SILTFENCE_AUDIT_CLERK_EMAIL``), whose mailbox keeps a
copy the server cannot rewrite.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings

from siltfence.apps.audit.chain import GENESIS, Verification, chain_verify
from siltfence.core.errors import SiltfenceError
from siltfence.core.jsonread import read_json

KEY_MIN_LENGTH = 32
_FORMAT = "siltfence-audit-checkpoint:v1"


class AnchorError(Exception):
    """Bad input: no key, or a checkpoint file that cannot be read. One line."""


@dataclass(frozen=True)
class Checkpoint:
    at: str  # UTC, ISO 8601
    count: int
    last_hash: str
    hmac: str

    def to_json(self) -> dict[str, Any]:
        return {"at": self.at, "count": self.count, "last_hash": self.last_hash, "hmac": self.hmac}


def audit_key() -> bytes:
    """The HMAC key, from the environment (never from the database)."""
    key = getattr(settings, "SILTFENCE_AUDIT_KEY", "")
    if not key:
        raise AnchorError(
            "SILTFENCE_AUDIT_KEY is not set: the audit checkpoints are signed with a key kept "
            "outside the database"
        )
    if len(key) < KEY_MIN_LENGTH:
        raise AnchorError(
            f"SILTFENCE_AUDIT_KEY is too short: use at least {KEY_MIN_LENGTH} characters"
        )
    return key.encode()


def checkpoints_path() -> Path:
    return Path(settings.SILTFENCE_AUDIT_CHECKPOINTS)


def _message(at: str, count: int, last_hash: str) -> bytes:
    return f"{_FORMAT}:{at}:{count}:{last_hash}".encode()


def sign(key: bytes, at: str, count: int, last_hash: str) -> str:
    return hmac.new(key, _message(at, count, last_hash), hashlib.sha256).hexdigest()


def checkpoints_read(path: Path) -> list[Checkpoint]:
    """Every checkpoint in the file, oldest first; no file means none yet."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise AnchorError(f"{path}: cannot read the audit checkpoints ({exc})") from None
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            # A checkpoint is one short line; anything longer or nested is not one.
            raw = read_json(line, what="checkpoint", max_bytes=4096, max_depth=2)
            checkpoint = Checkpoint(
                at=str(raw["at"]),
                count=int(raw["count"]),
                last_hash=str(raw["last_hash"]),
                hmac=str(raw["hmac"]),
            )
        except (SiltfenceError, ValueError, KeyError, TypeError):
            raise AnchorError(
                f"{path}: line {number} is not an audit checkpoint "
                '(expected {"at", "count", "last_hash", "hmac"})'
            ) from None
        if checkpoint.count < 0:
            raise AnchorError(f"{path}: line {number}: count must not be negative")
        found.append(checkpoint)
    return found


def verify_anchored(path: Path | None = None) -> tuple[Verification, int]:
    """The chain walked from the start, then held against every checkpoint in the file.

    Returns the verification and how many checkpoints were checked. Raises AnchorError
    when there are checkpoints but no key to check them with.
    """
    path = path or checkpoints_path()
    checkpoints = checkpoints_read(path)
    key = audit_key() if checkpoints else b""
    hashes: dict[int, str] = {}
    result = chain_verify(keep={c.count for c in checkpoints}, kept=hashes)
    if not result.ok:
        return result, 0
    hashes[0] = GENESIS
    for number, checkpoint in enumerate(checkpoints, start=1):
        expected = sign(key, checkpoint.at, checkpoint.count, checkpoint.last_hash)
        if not hmac.compare_digest(expected, checkpoint.hmac):
            return Verification(
                False,
                result.checked,
                checkpoint.count,
                f"checkpoint {number} ({checkpoint.at}) fails its HMAC: the checkpoint was "
                "altered, or it was signed with another key",
            ), number - 1
        if checkpoint.count > result.checked:
            return Verification(
                False,
                result.checked,
                result.checked + 1,
                f"the chain ends at #{result.checked} but the checkpoint of {checkpoint.at} "
                f"recorded #{checkpoint.count}: events were removed",
            ), number - 1
        if hashes[checkpoint.count] != checkpoint.last_hash:
            return Verification(
                False,
                result.checked,
                checkpoint.count,
                f"event #{checkpoint.count} does not match the checkpoint of {checkpoint.at}: "
                "the history up to it was rewritten",
            ), number - 1
    return result, len(checkpoints)


def checkpoint_write(path: Path | None = None) -> tuple[Checkpoint, Verification]:
    """Append a signed checkpoint of the chain head, once the chain checks out.

    A broken chain (against itself or an earlier checkpoint) gets no new checkpoint: the
    returned verification says why, and nothing is written.
    """
    path = path or checkpoints_path()
    key = audit_key()
    result, _ = verify_anchored(path)
    if not result.ok:
        return Checkpoint("", 0, "", ""), result
    from siltfence.apps.audit.models import AuditEvent

    last = AuditEvent.objects.filter(seq=result.checked).values_list("hash", flat=True).first()
    last_hash = last or GENESIS
    at = datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat()
    checkpoint = Checkpoint(at, result.checked, last_hash, sign(key, at, result.checked, last_hash))
    path.parent.mkdir(parents=True, exist_ok=True)
    line = json.dumps(checkpoint.to_json(), sort_keys=True) + "\n"
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
    try:
        os.write(descriptor, line.encode())
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    return checkpoint, result


def checkpoint_email(checkpoint: Checkpoint) -> list[str]:
    """Send the checkpoint to the clerk's addresses, if any are set; return them."""
    recipients = list(getattr(settings, "SILTFENCE_AUDIT_CLERK_EMAIL", []))
    if not recipients:
        return []
    from django.core.mail import send_mail

    line = json.dumps(checkpoint.to_json(), sort_keys=True)
    body = (
        f"The audit record held {checkpoint.count} events at {checkpoint.at} (UTC).\n\n"
        "Keep this message. To check the record against it, save the line below in a file "
        "and run `siltfence audit verify --checkpoints FILE`.\n\n"
        f"{line}\n"
    )
    send_mail(
        f"siltfence audit checkpoint: {checkpoint.count} events, {checkpoint.at}",
        body,
        None,
        recipients,
    )
    return recipients


def checkpoint_if_keyed() -> bool:
    """Write a checkpoint now, where the deployment has a key (after an import or a batch
    of events: fewer events are left unanchored). No email; the daily one sends it. Never
    raises: a checkpoint not written is one the next run writes."""
    if not getattr(settings, "SILTFENCE_AUDIT_KEY", ""):
        return False
    try:
        _, result = checkpoint_write()
    except (AnchorError, OSError):
        return False
    return result.ok
