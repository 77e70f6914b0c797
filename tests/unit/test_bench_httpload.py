"""The web benchmark's client (bench/httpload.py): its percentiles, its summary, and its
reading of HTTP/1.1 answers over keep-alive connections."""

from __future__ import annotations

import asyncio
import http.server
import math
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from httpload import Request, Run, _read_answer, load, percentile, summarize


def test_percentiles_interpolate_between_ranks_as_numpy_does() -> None:
    values = [10.0, 20.0, 30.0, 40.0]
    assert percentile(values, 0) == 10.0
    assert percentile(values, 100) == 40.0
    assert percentile(values, 50) == 25.0
    assert percentile(values, 95) == pytest.approx(38.5)
    assert percentile([7.0], 99) == 7.0
    assert math.isnan(percentile([], 50))
    with pytest.raises(ValueError):
        percentile(values, 101)


def test_a_hundred_requests_of_1_to_100_ms_give_the_expected_summary() -> None:
    run = Run(seconds=2.0, times=[i / 1000 for i in range(100, 0, -1)])
    run.statuses = Counter({200: 100, 500: 2})
    run.errors = Counter({"status 500": 2})
    summary = summarize(run)
    assert summary["requests"] == 100
    assert summary["errors"] == 2
    assert summary["requests_per_s"] == 50.0
    assert summary["p50_ms"] == 50.5
    assert summary["p95_ms"] == pytest.approx(95.0, abs=0.1)
    assert summary["p99_ms"] == pytest.approx(99.0, abs=0.1)


def test_a_run_with_no_answer_has_no_percentiles() -> None:
    summary = summarize(Run(seconds=1.0))
    assert summary["requests"] == 0 and summary["p95_ms"] is None


def _read(raw: bytes) -> tuple[int, bytes, bool]:
    async def go() -> tuple[int, bytes, bool]:
        reader = asyncio.StreamReader()
        reader.feed_data(raw)
        reader.feed_eof()
        return await _read_answer(reader)

    return asyncio.run(go())


def test_answers_are_read_whole_with_a_length_chunked_or_closing() -> None:
    assert _read(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello") == (200, b"hello", True)
    chunked = (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        b"5\r\nhello\r\n6;x=y\r\n world\r\n0\r\n\r\n"
    )
    assert _read(chunked) == (200, b"hello world", True)
    closing = b"HTTP/1.1 302 Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
    assert _read(closing) == (302, b"", False)
    assert _read(b"HTTP/1.0 200 OK\r\n\r\nto the end") == (200, b"to the end", False)


def test_a_post_carries_its_length_and_body() -> None:
    request = Request("POST", "/api", (("Content-Type", "application/json"),), b"{}")
    encoded = request.encode("127.0.0.1:8000")
    assert encoded.startswith(b"POST /api HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n")
    assert b"Content-Length: 2\r\n" in encoded and encoded.endswith(b"\r\n\r\n{}")


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        body = b'{"ok": true}'
        self.send_response(200 if self.path == "/ok" else 404)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[int]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def test_clients_keep_their_connections_and_count_unexpected_statuses(server: int) -> None:
    run = load(
        "127.0.0.1",
        server,
        [Request("GET", "/ok"), Request("GET", "/missing")],
        clients=3,
        seconds=0.4,
    )
    assert run.statuses[200] > 0 and run.statuses[404] > 0
    assert len(run.times) == run.statuses[200]
    assert run.errors["status 404"] == run.statuses[404]
    assert run.seconds >= 0.4


class _Counting(_Handler):
    seen: ClassVar[list[tuple[int, str]]] = []

    def do_GET(self) -> None:
        _Counting.seen.append((self.client_address[1], self.headers.get("Connection", "")))
        super().do_GET()


@pytest.mark.parametrize("keep_alive", [True, False])
def test_without_keep_alive_each_request_comes_on_a_new_connection(keep_alive: bool) -> None:
    _Counting.seen = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Counting)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        run = load(
            "127.0.0.1",
            httpd.server_address[1],
            [Request("GET", "/ok")],
            clients=2,
            seconds=0.3,
            keep_alive=keep_alive,
        )
    finally:
        httpd.shutdown()
        httpd.server_close()
    requests = len(_Counting.seen)
    connections = len({port for port, _ in _Counting.seen})
    assert requests > 10 and run.statuses[200] == requests and not run.errors
    assert {header for _, header in _Counting.seen} == {"keep-alive" if keep_alive else "close"}
    if keep_alive:
        assert connections == 2  # one a client, kept
    else:
        assert connections == requests  # a new one every time
