"""The design-check report as a PDF for the file (fpdf2, core fonts, pure Python).

The PDF holds what the HTML page holds, in the same order: the summary, the checks with
failures first (each with its fix, method, inputs, every step and its notes), the site areas
measured from the geometry, and the plan checklist. The core fonts cover Latin-1 only, so a
few symbols are spelled out (π as "pi", ≤ as "<=").
"""

from __future__ import annotations

from typing import Any

from fpdf import FPDF
from fpdf.enums import XPos, YPos

SPELLED = {
    "π": "pi",
    "ρ": "rho",
    "μ": "mu",
    "≤": "<=",
    "≥": ">=",
    "√": "sqrt",
    "–": "-",
    "—": "-",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "✔": "x",
    "✗": "-",
    "…": "...",
    "\u00a0": " ",
}
TITLES = {"fail": "FAIL", "needs-action": "NEEDS ACTION", "pass": "PASS", "info": "INFO"}


def latin1(text: str) -> str:
    for symbol, words in SPELLED.items():
        text = text.replace(symbol, words)
    return text.encode("latin-1", "replace").decode("latin-1")


class _Report(FPDF):
    title_text = ""

    def footer(self) -> None:
        self.set_y(-12)
        self.set_font("Helvetica", size=8)
        self.cell(0, 5, latin1(f"{self.title_text}  -  page {self.page_no()}"), align="C")


def report_pdf(report: dict[str, Any], *, compress: bool = True) -> bytes:
    """The PDF's bytes; ``compress=False`` leaves the page text readable (for tests)."""
    pdf = _Report(format="letter")
    pdf.set_compression(compress)
    pdf.set_margins(18, 16, 18)
    pdf.set_auto_page_break(auto=True, margin=16)
    o = report["ordinance"]
    pdf.title_text = f"Design-check report, {o['title']}, {report['evaluated_on']}"
    pdf.set_title(latin1(pdf.title_text))
    pdf.set_creator("siltfence")
    pdf.add_page()

    def para(text: str, size: float = 10, style: str = "", indent: float = 0) -> None:
        pdf.set_font("Helvetica", style=style, size=size)
        pdf.set_x(pdf.l_margin + indent)
        pdf.multi_cell(
            pdf.epw - indent, size * 0.5, latin1(text), new_x=XPos.LMARGIN, new_y=YPos.NEXT
        )

    para("Design-check report of a control plan", 16, "B")
    para(f"{o['title']}, version {o['version']}; judged on {report['evaluated_on']}")
    s = report["summary"]
    para(
        f"{s['fail']} fail, {s['needs-action']} need action, {s['pass']} pass, {s['info']} for "
        f"information. Checklist: {s['checklist_present']} of "
        f"{s['checklist_present'] + s['checklist_missing']} items present.",
        11,
        "B",
    )
    pdf.ln(3)
    para("Design checks, failures first", 13, "B")
    for check in report["checks"]:
        pdf.ln(2)
        para(f"{TITLES[check['result']]}: {check['title']} ({check['citation']})", 11, "B")
        para(check["says"])
        if check["fix"]:
            para(f"Fix: {check['fix']}", style="B")
        para(f"Method: {check['method']['name']}: {check['method']['formula']}", 9)
        if check["inputs"]:
            para("Inputs: " + "; ".join(f"{k} = {v}" for k, v in check["inputs"].items()), 9)
        for step in check["steps"]:
            para(f"{step['label']}: {step['formula']} = {step['text']}", 9, indent=5)
        for note in check["notes"]:
            para(f"Note: {note}", 8, "I", indent=5)
    site = report["site"]["measured"]
    pdf.ln(3)
    para(f"The site, measured from its geometry ({site['citation']})", 13, "B")
    para(site["says"])
    para(f"Method: {site['method']['name']}: {site['method']['formula']}", 9)
    for step in site["steps"]:
        para(f"{step['label']}: {step['formula']} = {step['text']}", 9, indent=5)
    checklist = report["checklist"]
    pdf.ln(3)
    para(f"Plan checklist ({checklist['citation'] or 'no plan required'})", 13, "B")
    para(checklist["says"], 9)
    for item in checklist["items"]:
        mark = "[x]" if item["present"] else "[ ]"
        para(f"{mark} {item['item']} ({item['citation']})", 10, "" if item["present"] else "B")
        para(item["evidence"] + (f". Fix: {item['fix']}" if item["fix"] else ""), 8, indent=6)
    return bytes(pdf.output())
