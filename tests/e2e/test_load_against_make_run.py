"""The worst work an outsider can send, all at once, to `make run`: every answer comes within
a few seconds, and the home page keeps answering throughout.

What is sent together (each was once a way to tie up the server, issue 19):
- the largest plans the design checks take (the phases each starting on another day, open
  to 2099), and plans far beyond the bounds (1,000 phases, 319 kB; 10,000 sheet-flow paths),
  to the API and to the web form;
- as staff, a 300 kB gzip file holding 300 MB of newlines (it once held a worker for
  21 minutes), and an honest 400,000-row gauge file of 9 MB (62 s in the request before it
  went to the worker);
- the home page, asked every quarter second from start to end.

The test stops itself: every request has a timeout, and the whole run has a deadline.
"""

from __future__ import annotations

import datetime
import gzip
import http.cookiejar
import io
import json
import re
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from test_design_check_limits import plan_of_phases
from test_production_serving import served  # noqa: F401 - the `make run` server fixture

from siltfence.core.engineering.plan import MAX_OF_KIND

pytestmark = pytest.mark.no_suite_database

REPO = Path(__file__).resolve().parents[2]
# Each answer within this many seconds, on a shared machine of two cores running
# gunicorn's two workers, the task worker and this test's own threads.
ANSWER_SECONDS = 5.0
RUN_SECONDS = 120.0
STAFF = "spencer-building-inspector"
PASSWORD = "silt-fence-demo-2026"


@dataclass
class Answer:
    what: str
    status: int
    seconds: float
    body: str = field(repr=False)


def _ask(opener: Any, request: urllib.request.Request, what: str) -> Answer:
    start = time.monotonic()
    try:
        with opener.open(request, timeout=RUN_SECONDS) as response:
            status, body = response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as refused:
        status, body = refused.code, refused.read().decode("utf-8", "replace")
    return Answer(what, status, time.monotonic() - start, body)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _browser() -> tuple[Any, http.cookiejar.CookieJar]:
    jar = http.cookiejar.CookieJar()
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect()), jar


def _token(jar: http.cookiejar.CookieJar) -> str:
    return next(c.value for c in jar if c.name == "csrftoken")


def _form_post(base: str, path: str, jar: Any, fields: dict[str, str]) -> urllib.request.Request:
    data = urllib.parse.urlencode({"csrfmiddlewaretoken": _token(jar), **fields}).encode()
    return urllib.request.Request(base + path, data=data, headers={"Referer": base + path})


def _multipart(
    base: str, path: str, jar: Any, fields: dict[str, str], name: str, content: bytes
) -> urllib.request.Request:
    boundary = uuid.uuid4().hex
    out = io.BytesIO()
    for key, value in {"csrfmiddlewaretoken": _token(jar), **fields}.items():
        head = f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n'
        out.write(f"{head}{value}\r\n".encode())
    out.write(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n".encode()
    )
    out.write(content)
    out.write(f"\r\n--{boundary}--\r\n".encode())
    return urllib.request.Request(
        base + path,
        data=out.getvalue(),
        headers={
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "Referer": base + path,
        },
    )


def _signed_in_staff(base: str, data: Path) -> tuple[Any, Any]:
    """The demo's building inspector, past the password and the code step."""
    opener, jar = _browser()
    _ask(opener, urllib.request.Request(base + "/accounts/login/"), "login page")
    login = _ask(
        opener,
        _form_post(base, "/accounts/login/", jar, {"username": STAFF, "password": PASSWORD}),
        "password",
    )
    assert login.status == 302, login.body[:500]
    code = subprocess.run(
        ["make", "-s", "-o", ".venv/bin/.installed", "demo-code", f"WHO={STAFF}", f"DATA={data}"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout.strip()
    assert re.fullmatch(r"\d{6}", code), code
    _ask(opener, urllib.request.Request(base + "/accounts/login/code/"), "code page")
    passed = _ask(
        opener, _form_post(base, "/accounts/login/code/", jar, {"code": code}), "code step"
    )
    assert passed.status == 302, passed.body[:500]
    _ask(opener, urllib.request.Request(base + "/rain/import/"), "rain import page")
    return opener, jar


def _json_post(base: str, path: str, body: Any) -> urllib.request.Request:
    return urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )


def _gzip_bomb() -> bytes:
    """300 MB of newlines, about 300 kB compressed."""
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=9) as packed:
        block = b"\n" * (1024 * 1024)
        for _ in range(300):
            packed.write(block)
    return out.getvalue()


def _gauge_file(rows: int = 400_000) -> bytes:
    """An honest tipping-bucket gauge record: one reading a minute, 0.01 in every hour."""
    start = datetime.datetime(2026, 3, 1)
    lines = ["timestamp,rain_in"]
    for n in range(rows):
        moment = start + datetime.timedelta(minutes=n)
        lines.append(f"{moment:%Y-%m-%dT%H:%M},{'0.01' if n % 60 == 0 else '0.00'}")
    return ("\n".join(lines) + "\n").encode()


def test_the_worst_work_at_once_is_answered_within_seconds_and_the_home_page_keeps_answering(
    served,  # noqa: F811
):
    base = f"http://127.0.0.1:{served['port']}"
    staff, jar = _signed_in_staff(base, served["data"])
    largest = plan_of_phases(MAX_OF_KIND["disturbed_area"] - 1)  # the case has one phase
    beyond = plan_of_phases(1000)
    paths = dict(largest, sheet_flow=[largest["sheet_flow"][0]] * 10_000)
    bomb, gauge = _gzip_bomb(), _gauge_file()
    assert len(bomb) < 400_000 and len(gauge) > 8_000_000

    work: list[tuple[str, Any, Any]] = []
    anonymous = urllib.request.build_opener(NoRedirect())
    for n in range(4):
        work.append(
            (f"largest plan {n}", anonymous, _json_post(base, "/api/v1/design-checks", largest))
        )
    for n in range(2):
        work.append(
            (f"1,000 phases {n}", anonymous, _json_post(base, "/api/v1/design-checks", beyond))
        )
    work.append(
        ("10,000 sheet-flow paths", anonymous, _json_post(base, "/api/v1/design-checks", paths))
    )
    work.append(
        (
            "gzip bomb",
            staff,
            _multipart(base, "/rain/import/", jar, {"station": "USC00475120"}, "bomb.csv.gz", bomb),
        )
    )
    work.append(
        (
            "9 MB gauge file",
            staff,
            _multipart(base, "/rain/import/", jar, {"station": "USC00475120"}, "gauge.csv", gauge),
        )
    )

    answers: list[Answer] = []
    home: list[Answer] = []
    done = threading.Event()
    deadline = time.monotonic() + RUN_SECONDS

    def keep_asking_for_the_home_page() -> None:
        while not done.is_set() and time.monotonic() < deadline:
            home.append(_ask(anonymous, urllib.request.Request(base + "/"), "home page"))
            time.sleep(0.25)

    def send(what: str, opener: Any, request: Any) -> None:
        answers.append(_ask(opener, request, what))

    watcher = threading.Thread(target=keep_asking_for_the_home_page, daemon=True)
    watcher.start()
    senders = [threading.Thread(target=send, args=item, daemon=True) for item in work]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join(timeout=max(0.0, deadline - time.monotonic()))
    done.set()
    watcher.join(timeout=RUN_SECONDS)

    # The figures, for the record (pytest -s shows them).
    print(
        json.dumps(
            {
                "answers": {a.what: [a.status, round(a.seconds, 2)] for a in answers},
                "home_page": {
                    "asked": len(home),
                    "slowest_s": round(max((a.seconds for a in home), default=0), 2),
                },
            },
            indent=1,
        )
    )
    assert len(answers) == len(work), "every request was answered before the run's deadline"
    slow = [(a.what, round(a.seconds, 1)) for a in answers + home if a.seconds > ANSWER_SECONDS]
    assert not slow, f"answers slower than {ANSWER_SECONDS} s: {slow}"
    by_name = {a.what: a for a in answers}
    for n in range(4):
        assert by_name[f"largest plan {n}"].status == 200
    for n in range(2):
        refused = by_name[f"1,000 phases {n}"]
        assert refused.status == 400
        assert "plan.site.features: at most 200 features" in refused.body
    assert by_name["10,000 sheet-flow paths"].status == 400
    assert "plan.sheet_flow" in by_name["10,000 sheet-flow paths"].body
    # Refused at a bound it names (empty lines in a row, or how far the file expands).
    bomb_answer = by_name["gzip bomb"]
    assert bomb_answer.status == 400
    assert re.search(r"more than [\d,]+ (empty lines|times)", bomb_answer.body), bomb_answer.body[
        -2000:
    ]
    # The honest file goes to the worker: the answer is its progress page.
    gauge_answer = by_name["9 MB gauge file"]
    assert gauge_answer.status == 302, gauge_answer.body[:300]
    assert home and {a.status for a in home} == {200}
    # And after it all, the server still answers.
    after = _ask(anonymous, urllib.request.Request(base + "/"), "home page after")
    assert after.status == 200 and after.seconds < ANSWER_SECONDS
