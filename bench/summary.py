"""One table from one run of ``make bench``: each path people wait on, as a ratio against a
floor measured in the same run where there is one, beside its budget.

The budgets (DESIGN.md, raised where they were met):

- the cold ``siltfence determine``: within 6x a bare interpreter's start;
- a signed-in trivial page: at least 0.7 of the anonymous trivial page's throughput;
- the staff queue and a permit's page at 100,000 permits: at least 0.5 of the signed-in
  trivial page's throughput, and a 95th percentile under 150 ms;
- the full recompute of 100,000 permits' duties: under 30 s with two processes;
- the daily sweep of 100,000 permits: under 1 s;
- the amendment analysis of 1,000,000 projects: within 1.2x the numpy kernel;
- the slowest refusal of hostile input (a gzip bomb, deep JSON, quantities built to make a
  parser backtrack): under 5 s, the longest a request may hold a worker.

``rows(results)`` reads them from the results ``bench/run.py`` gathers; a figure a part of
the run did not give (no PostgreSQL, the county skipped) is shown as not measured, never as
met.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

BUDGETS = {
    "cli_ratio": 6.0,
    "signed_in_share": 0.7,
    "page_share_of_signed_in": 0.5,
    "page_p95_ms": 150.0,
    "recompute_100k_s": 30.0,
    "sweep_100k_s": 1.0,
    "analysis_ratio": 1.2,
    "hostile_refusal_s": 5.0,
}


def _get(data: Any, *path: str) -> Any:
    for key in path:
        if not isinstance(data, Mapping) or key not in data:
            return None
        data = data[key]
    return data


def _row(
    path: str, measured: Any, budget: str, met: Callable[[float], bool], unit: str = ""
) -> dict[str, Any]:
    if not isinstance(measured, int | float):
        return {"path": path, "measured": None, "budget": budget, "met": None}
    return {"path": path, "measured": f"{measured:g}{unit}", "budget": budget, "met": met(measured)}


def _pages(results: Mapping[str, Any], server: str) -> list[dict[str, Any]]:
    pages = _get(results, "web_postgres", "servers", server, "pages") or {}
    found = [
        _row(
            f"signed-in trivial page ({server}), share of the anonymous one",
            _get(pages, "trivial_signed_in", "share_of_trivial"),
            f"at least {BUDGETS['signed_in_share']:g}",
            lambda share: share >= BUDGETS["signed_in_share"],
        )
    ]
    for name, words in (("staff_queue", "staff queue"), ("permit_page", "permit page")):
        share = _get(pages, name, "share_of_signed_in_trivial")
        found.append(
            _row(
                f"{words} at 100,000 permits ({server}), share of the signed-in trivial page",
                share,
                f"at least {BUDGETS['page_share_of_signed_in']:g}",
                lambda s: s >= BUDGETS["page_share_of_signed_in"],
            )
        )
        found.append(
            _row(
                f"{words} at 100,000 permits ({server}), p95",
                _get(pages, name, "median", "p95_ms"),
                f"under {BUDGETS['page_p95_ms']:g} ms",
                lambda ms: ms < BUDGETS["page_p95_ms"],
                " ms",
            )
        )
    return found


def rows(results: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The table's rows: path, measured, budget, and whether it was met (None: not measured)."""
    sweep = results.get("daily_sweep_postgres") or {}
    table = [
        _row(
            "cold `siltfence determine`, ratio to a bare interpreter's start",
            _get(results, "cli_cold_start_numbers", "ratio_to_bare_interpreter"),
            f"at most {BUDGETS['cli_ratio']:g}x",
            lambda ratio: ratio <= BUDGETS["cli_ratio"],
            "x",
        ),
    ]
    for server in ("gthread", "sync"):
        table += _pages(results, server)
    table += [
        _row(
            "full recompute of 100,000 permits' duties, two processes",
            _get(sweep, "full_recompute", "all_permits", "projected_100k_s"),
            f"under {BUDGETS['recompute_100k_s']:g} s",
            lambda s: s < BUDGETS["recompute_100k_s"],
            " s",
        ),
        _row(
            "daily sweep of one rain day over 100,000 permits",
            _get(sweep, "sweep", "seconds"),
            f"under {BUDGETS['sweep_100k_s']:g} s",
            lambda s: s < BUDGETS["sweep_100k_s"],
            " s",
        ),
        _row(
            "amendment analysis of 1,000,000 projects, ratio to the numpy kernel",
            _get(results, "amendment_analysis", "ratio_to_kernel"),
            f"at most {BUDGETS['analysis_ratio']:g}x",
            lambda ratio: ratio <= BUDGETS["analysis_ratio"],
            "x",
        ),
        _row(
            "slowest refusal of hostile input (gzip bomb, deep JSON, backtracking quantities)",
            _get(results, "hostile_input", "slowest_s"),
            f"under {BUDGETS['hostile_refusal_s']:g} s",
            lambda s: s < BUDGETS["hostile_refusal_s"],
            " s",
        ),
    ]
    return table


def text(table: list[dict[str, Any]]) -> str:
    """The rows as a plain-text table, for the terminal."""
    words = {True: "met", False: "NOT MET", None: "not measured"}
    lines = [f"{'path':<88} {'measured':>10}  {'budget':<16} result"]
    for row in table:
        measured = row["measured"] if row["measured"] is not None else "-"
        lines.append(f"{row['path']:<88} {measured:>10}  {row['budget']:<16} {words[row['met']]}")
    return "\n".join(lines)
