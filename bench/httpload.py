"""A small HTTP load generator: asyncio and raw HTTP/1.1 keep-alive sockets, stdlib only.

``load(host, port, requests, clients=20, seconds=10)`` opens ``clients`` connections and has
each send its next request as soon as the answer to the last one has been read (a closed
loop: 20 clients are 20 users clicking as fast as the server answers). Requests go round
``requests`` in turn, so a target can be several pages of one kind. Every answer is read
whole (Content-Length or chunked), and its time is from the first byte written to the
last byte read. With ``keep_alive=False`` each request goes on a new connection
(``Connection: close``), as nginx reaches the server behind it by default, and its time
starts when the connection is opened. ``summarize`` turns the times into requests per
second and percentiles; any answer whose status is not the one expected counts as an
error, and is not timed.
"""

from __future__ import annotations

import asyncio
import itertools
import math
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    expect: int = 200

    def encode(self, host: str, keep_alive: bool = True) -> bytes:
        connection = "keep-alive" if keep_alive else "close"
        lines = [
            f"{self.method} {self.path} HTTP/1.1",
            f"Host: {host}",
            f"Connection: {connection}",
        ]
        lines += [f"{name}: {value}" for name, value in self.headers]
        if self.body or self.method in ("POST", "PUT", "PATCH"):
            lines.append(f"Content-Length: {len(self.body)}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + self.body


@dataclass
class Run:
    seconds: float
    times: list[float] = field(default_factory=list)  # seconds, answers as expected
    statuses: Counter[int] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    bytes_read: int = 0


class Closed(Exception):
    pass


async def _read_answer(reader: asyncio.StreamReader) -> tuple[int, bytes, bool]:
    """(status, body, keep-alive) of one answer."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/"):
        raise Closed(f"not an HTTP answer: {lines[0][:60]!r}")
    status = int(parts[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    keep = headers.get("connection", "").lower() != "close"
    if "chunked" in headers.get("transfer-encoding", "").lower():
        body = bytearray()
        while True:
            size_line = await reader.readuntil(b"\r\n")
            size = int(size_line.split(b";", 1)[0].strip() or b"0", 16)
            if size == 0:
                await reader.readuntil(b"\r\n")  # no trailers are sent to us
                break
            body += await reader.readexactly(size)
            await reader.readexactly(2)
        return status, bytes(body), keep
    if "content-length" in headers:
        return status, await reader.readexactly(int(headers["content-length"])), keep
    if status in (204, 304) or 100 <= status < 200:
        return status, b"", keep
    return status, await reader.read(), False  # the body runs to the end of the connection


async def _client(
    host: str,
    port: int,
    requests: Sequence[Request],
    start: int,
    deadline: float,
    run: Run,
    timeout: float,
    keep_alive: bool,
) -> None:
    cycle = itertools.islice(itertools.cycle(requests), start % len(requests), None)
    encoded = {id(r): r.encode(f"{host}:{port}", keep_alive) for r in requests}
    reader: asyncio.StreamReader | None = None
    writer: asyncio.StreamWriter | None = None
    for request in cycle:
        if time.perf_counter() >= deadline:
            break
        try:
            began = time.perf_counter()
            if writer is None:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection(host, port), timeout
                )
            if keep_alive:
                began = time.perf_counter()
            assert reader is not None
            writer.write(encoded[id(request)])
            await writer.drain()
            status, body, keep = await asyncio.wait_for(_read_answer(reader), timeout)
            took = time.perf_counter() - began
        except (TimeoutError, OSError, asyncio.IncompleteReadError, Closed) as exc:
            run.errors[type(exc).__name__] += 1
            if writer is not None:
                writer.close()
            reader = writer = None
            continue
        run.statuses[status] += 1
        run.bytes_read += len(body)
        if status == request.expect:
            run.times.append(took)
        else:
            run.errors[f"status {status}"] += 1
        if not keep or not keep_alive:
            writer.close()
            reader = writer = None
    if writer is not None:
        writer.close()


async def _load(
    host: str,
    port: int,
    requests: Sequence[Request],
    clients: int,
    seconds: float,
    timeout: float,
    keep_alive: bool,
) -> Run:
    began = time.perf_counter()
    run = Run(seconds=seconds)
    deadline = began + seconds
    await asyncio.gather(
        *(
            _client(host, port, requests, i, deadline, run, timeout, keep_alive)
            for i in range(clients)
        )
    )
    # Answers still in flight at the deadline are counted: the run lasted until they came.
    run.seconds = time.perf_counter() - began
    return run


def load(
    host: str,
    port: int,
    requests: Sequence[Request],
    *,
    clients: int = 20,
    seconds: float = 10.0,
    timeout: float = 30.0,
    keep_alive: bool = True,
) -> Run:
    if not requests:
        raise ValueError("requests: at least one request is needed")
    return asyncio.run(_load(host, port, requests, clients, seconds, timeout, keep_alive))


def percentile(ordered: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of sorted values, interpolated linearly between the
    two nearest ranks (numpy's default, "linear")."""
    if not ordered:
        return math.nan
    if not 0 <= q <= 100:
        raise ValueError(f"q: expected 0 to 100, got {q}")
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summarize(run: Run) -> dict[str, object]:
    """Requests per second (answers as expected, over the run's length) and latency
    percentiles in milliseconds."""
    ordered = sorted(run.times)
    done = len(ordered)
    return {
        "requests": done,
        "errors": sum(run.errors.values()),
        "error_kinds": dict(run.errors),
        "seconds": round(run.seconds, 2),
        "requests_per_s": round(done / run.seconds, 1) if run.seconds > 0 else 0.0,
        "p50_ms": _ms(percentile(ordered, 50)),
        "p95_ms": _ms(percentile(ordered, 95)),
        "p99_ms": _ms(percentile(ordered, 99)),
        "mean_kb": round(run.bytes_read / max(sum(run.statuses.values()), 1) / 1024, 1),
    }


def _ms(seconds: float) -> float | None:
    return None if math.isnan(seconds) else round(seconds * 1000, 1)
