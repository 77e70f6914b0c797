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
# ... and about 40 million lines.
MAX_LINES = 60_000_000
# A rain record compresses by about 5 to 30 times with gzip; a file that expands by more
# than this is not a rain record but a compressed bomb (300 KB of gzip holding 300 MB of
# empty lines). Checked once this much has been decompressed, so small files never are.
MAX_EXPANSION = 100
EXPANSION_CHECKED_FROM = 8 * 1024**2
# Empty lines in a row: a record has none or a few; a file of nothing else is refused at
# once rather than read to its end.
MAX_EMPTY_RUN = 1000

GZIP_MAGIC = b"\x1f\x8b"


def numbered_lines(
    stream: BinaryIO,
    *,
    max_line: int = MAX_LINE,
    max_bytes: int = MAX_BYTES,
    max_lines: int = MAX_LINES,
) -> Iterator[tuple[int, bytes]]:
    """(line number from 1, the line without its end-of-line) for each line of ``stream``."""
    buffered: Any = (
        stream if isinstance(stream, io.BufferedReader) else io.BufferedReader(cast(Any, stream))
    )
    compressed: Any = None
    start: int | None = None
    if buffered.peek(2)[:2] == GZIP_MAGIC:
        compressed, start = buffered, _position(buffered)
        buffered = io.BufferedReader(cast(Any, gzip.GzipFile(fileobj=buffered, mode="rb")))
    total = 0
    number = 0
    empty = 0
    while True:
        number += 1
        if number > max_lines:
            raise RainFileError(
                f"the file has more than {max_lines:,} lines, the most siltfence reads", number
            )
        try:
            raw = buffered.readline(max_line + 2)
        except (OSError, EOFError, zlib.error):
            raise RainFileError("the compressed file is damaged or cut short", number) from None
        if not raw:
            return
        total += len(raw)
        if compressed is not None and start is not None and total > EXPANSION_CHECKED_FROM:
            now = _position(compressed)
            read = max(1, (now or start) - start)
            if now is not None and total > MAX_EXPANSION * read:
                raise RainFileError(
                    f"the compressed file expands more than {MAX_EXPANSION} times "
                    f"({read:,} bytes to over {total:,}): that is not a rain record",
                    number,
                )
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
        empty = empty + 1 if not raw.strip() else 0
        if empty > MAX_EMPTY_RUN:
            raise RainFileError(
                f"more than {MAX_EMPTY_RUN:,} empty lines in a row: that is not a rain record",
                number,
            )
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]  # a byte-order mark, as spreadsheet programs write
        yield number, raw


def _position(stream: Any) -> int | None:
    """How far into the compressed file the reader is (None where it cannot say: a pipe)."""
    try:
        return int(stream.tell())
    except (OSError, ValueError):
        return None


def text(raw: bytes, number: int) -> str:
    """A line as text; a line that is not UTF-8 is an error naming it."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RainFileError("not UTF-8 text", number) from None
