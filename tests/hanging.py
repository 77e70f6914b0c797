"""A guard against a hang, not a measure of speed: ``returns_within`` runs a call in a thread
of its own and fails the test if the call has not come back in the time given, which is set
far above any honest run (how fast hostile input is refused is measured by ``bench/``, as
every speed is).

A call that raises has its exception raised again here, so ``pytest.raises`` works around it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

# Five seconds is the longest a request may hold a worker (DESIGN.md, budgets); a refusal of
# hostile input takes milliseconds, so a call still running after this is stuck.
HANG_SECONDS = 5.0


def returns_within[T](call: Callable[..., T], *args: Any, seconds: float = HANG_SECONDS) -> T:
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = call(*args)
        except BaseException as exc:  # handed back to the test's own thread below
            outcome["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        pytest.fail(f"{getattr(call, '__name__', call)} did not return in {seconds:g} s: a hang")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
