"""Human-readable renderings for the terminal."""

from __future__ import annotations

from typing import Any

from siltfence.core.ordinance.compare import Topic
from siltfence.core.ordinance.model import Ordinance


def determination_text(d: dict[str, Any]) -> str:
    lines = [
        f"{d['ordinance']['title']}",
        f"Version {d['ordinance']['version']}, evaluated on {d['evaluated_on']}",
        "",
    ]
    if d["applies"]:
        lines.append(f"YES: the chapter applies. A permit from the {d['authority']} is required.")
    else:
        lines.append("NO: the chapter does not apply to these facts. No permit is required.")
    lines += ["", "Why:"]
    for f in d["findings"]:
        mark = "yes" if f["holds"] else "no "
        lines.append(f"  [{mark}] {f['kind']:<9} {f['citation']:<16} {f['says']}")
    if d["plan"]:
        plan = d["plan"]
        lines += ["", f"Plan required: {plan['kind'].replace('_', ' ')} ({plan['citation']})"]
        lines.append(f"  {plan['says']}")
        for item in plan["contents"]:
            lines.append(f"  - {item['item']} ({item['citation']})")
    if d["requirements"]:
        lines += ["", "Requirements that attach:"]
        for r in d["requirements"]:
            every = (
                " [every construction site, permit or not]" if r["scope"] == "every_site" else ""
            )
            lines.append(f"  - {r['says']} ({r['citation']}){every}")
            if r.get("responsible"):
                lines.append(f"    {r['responsible']}")
    if d["notes"]:
        lines += ["", "Notes:"]
        for n in d["notes"]:
            gap = f"gap {n['gap']}: " if "gap" in n else ""
            lines.append(f"  ! {gap}{n['says']} ({', '.join(n['citations'])})")
    return "\n".join(lines) + "\n"


def ordinance_text(detail: dict[str, Any]) -> str:
    lines = [
        f"{detail['name']}, {detail['county']}, {detail['state']}",
        f"Ch. {detail['chapter']} {detail['title']}; adopted {detail['adopted']}",
        f"Administered by the {detail['authority']}; appeals to the {detail['appeals_body']}",
        f"Counting time: {detail['time_counting']['says']} ({detail['time_counting']['citation']})",
        "",
        "Sections (* = number reconstructed from order):",
    ]
    for s in detail["sections"]:
        star = "*" if s["reconstructed"] else " "
        missing = " [not in the received text]" if not s["received"] else ""
        lines.append(f"  § {s['section']:<7}{star} {s['heading']}{missing}")
    lines += ["", "Parameters:"]
    for name, p in detail["parameters"].items():
        v = p["values"][-1]
        shown = v["value"] if v["value"] is not None else f"not in the chapter ({v['not_in_text']})"
        lines.append(f"  {name:<30} {shown} {p['unit']}  ({v['citation']}, from {v['effective']})")
    return "\n".join(lines) + "\n"


def diff_table(a: Ordinance, b: Ordinance, topics: list[Topic]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{a.name} Ch. {a.chapter} and {b.name} Ch. {b.chapter}", show_lines=True)
    table.add_column("Topic", style="bold")
    table.add_column(f"{a.name} ({a.id})")
    table.add_column(f"{b.name} ({b.id})")
    for topic in topics:
        table.add_row(
            topic.name + (" (same)" if topic.same else ""),
            "\n".join(f"{s} [{c}]" for s, c in topic.left) or "not in this chapter",
            "\n".join(f"{s} [{c}]" for s, c in topic.right) or "not in this chapter",
        )
    Console(width=160).print(table)
