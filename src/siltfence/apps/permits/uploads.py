"""Check an upload before it is stored: size, real type against the claimed one, and for
GeoJSON, the geometry itself. Stored files get server-made names whose extension comes
from the type found in the contents, never from the uploader's file name, and are only
ever served as attachments, never inline."""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass

from django.conf import settings

from siltfence.apps.permits.errors import ActionRefused
from siltfence.core.jsonread import read_json

# The types accepted, and every extension a file of the type may carry; the first is the
# one a stored file gets.
EXTENSIONS = {
    "application/pdf": (".pdf",),
    "image/png": (".png",),
    "image/jpeg": (".jpg", ".jpeg"),
    "application/geo+json": (".geojson", ".json"),
}
ALLOWED = {content_type: names[0] for content_type, names in EXTENSIONS.items()}
ALIASES = {
    "image/jpg": "image/jpeg",
    "image/pjpeg": "image/jpeg",
    "application/json": "application/geo+json",
}

TOO_BIG = "file: {name} is {size:,} bytes; the limit is {limit:,} bytes"
EMPTY = "file: {name} is empty"
NOT_ALLOWED = "file: {name} is {claimed}; upload a PDF, PNG, JPEG or GeoJSON file"
MISMATCH = "file: {name} claims to be {claimed} but its contents are {actual}"
GEOJSON_KIND = "kind: a GeoJSON file is uploaded as site geometry"


@dataclass(frozen=True)
class CheckedUpload:
    content_type: str  # the type found in the contents (the claim must agree with it)
    extension: str  # of that type: what the stored name ends with
    display_name: str


def _display_name(name: str) -> str:
    base = os.path.basename(name.replace("\\", "/")) or "upload"
    cleaned = "".join(ch for ch in base if unicodedata.category(ch)[0] != "C")
    return cleaned[:120] or "upload"


def _sniff(content: bytes) -> str:
    import filetype

    guess = filetype.guess(content)
    if guess is not None:
        return str(guess.mime)
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return "unknown binary data"
    # JSON text is an object or an array; whether it reads, within the bounds of the core's
    # reader, is the GeoJSON check's to say, naming the reason (nested too deep, ...).
    return "application/geo+json" if text.lstrip()[:1] in ("{", "[") else "unknown binary data"


def checked_upload(*, name: str, content: bytes, claimed_type: str, kind: str) -> CheckedUpload:
    display = _display_name(name)
    limit = int(settings.SILTFENCE_UPLOAD_MAX_BYTES)
    if not content:
        raise ActionRefused(EMPTY.format(name=display), field="file")
    if len(content) > limit:
        raise ActionRefused(
            TOO_BIG.format(name=display, size=len(content), limit=limit), field="file"
        )
    claimed = ALIASES.get(claimed_type.split(";")[0].strip().lower(), claimed_type.lower())
    if claimed == "application/octet-stream":
        claimed = {".geojson": "application/geo+json", ".json": "application/geo+json"}.get(
            os.path.splitext(display)[1].lower(), claimed
        )
    if claimed not in ALLOWED:
        raise ActionRefused(
            NOT_ALLOWED.format(name=display, claimed=claimed or "of no type"), field="file"
        )
    actual = _sniff(content)
    if actual != claimed:
        raise ActionRefused(
            MISMATCH.format(name=display, claimed=claimed, actual=actual), field="file"
        )
    if claimed == "application/geo+json":
        if kind != "geojson":
            raise ActionRefused(GEOJSON_KIND, field="kind")
        from siltfence.core.engineering.geometry import parse_geojson

        parse_geojson(read_json(content, what="file", max_bytes=len(content)), field="file")
    return CheckedUpload(actual, ALLOWED[actual], display)


def download_name(name: str, content_type: str) -> str:
    """The name a download is saved under: the uploader's name, with the extension of the
    type found in the contents. "evil.html" holding a PDF downloads as "evil.pdf", so a
    saved copy opens as what it is, not in a browser as a web page."""
    display = _display_name(name)
    extensions = EXTENSIONS.get(content_type)
    if extensions is None:
        return display
    stem, extension = os.path.splitext(display)
    if extension.lower() in extensions:
        return display
    return f"{stem or 'upload'}{extensions[0]}"
