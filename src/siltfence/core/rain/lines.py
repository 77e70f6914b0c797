"""A rain file as numbered lines, read in bounded pieces.

A file is read line by line, never whole: a ``by_year`` file of every station in the
world holds tens of millions of rows. Each line is bounded (``max_line`` bytes) and so is
the whole file (``max_bytes``, counted after decompression), so a file of one endless line
or a compressed bomb ends with a clear error instead of filling memory. A gzip file
(NOAA ships ``by_year`` and ``by_station`` files as ``.csv.gz``) is recognised by its
first bytes, not by its name, and decompressed on the fly.
"""

from __future__ import annotations

import gzip
import io
import zlib
from collections.abc import Iterator
from typing import Any, BinaryIO, cast

from siltfence.core.rain.errors import RainFileError

# The longest line of any supported layout is a .dly line of 269 characters; a CSV export
# with many columns is longer, but not by this much.
MAX_LINE = 4096
# A by_year file of one year of the whole world is about 1.3 GB uncompressed.
MAX_BYTES = 4 * 1024**3

GZIP_MAGIC = b"\x1f\x8b"


def numbered_lines(
    stream: BinaryIO, *, max_line: int = MAX_LINE, max_bytes: int = MAX_BYTES
) -> Iterator[tuple[int, bytes]]:
    """(line number from 1, the line without its end-of-line) for each line of ``stream``."""
    buffered: Any = (
        stream if isinstance(stream, io.BufferedReader) else io.BufferedReader(cast(Any, stream))
    )
    if buffered.peek(2)[:2] == GZIP_MAGIC:
        buffered = io.BufferedReader(cast(Any, gzip.GzipFile(fileobj=buffered, mode="rb")))
    total = 0
    number = 0
    while True:
        number += 1
        try:
            raw = buffered.readline(max_line + 2)
        except (OSError, EOFError, zlib.error):
            raise RainFileError("the compressed file is damaged or cut short", number) from None
        if not raw:
            return
        total += len(raw)
        if total > max_bytes:
            raise RainFileError(
                f"the file is larger than {max_bytes:,} bytes, the most siltfence reads", number
            )
        if raw.endswith(b"\n"):
            raw = raw[:-1]
            if raw.endswith(b"\r"):
                raw = raw[:-1]
        if len(raw) > max_line:
            raise RainFileError(f"the line is longer than {max_line:,} characters", number)
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]  # a byte-order mark, as spreadsheet programs write
        yield number, raw


def text(raw: bytes, number: int) -> str:
    """A line as text; a line that is not UTF-8 is an error naming it."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RainFileError("not UTF-8 text", number) from None
