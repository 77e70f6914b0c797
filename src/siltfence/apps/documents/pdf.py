"""Lay out document lines as a PDF with fpdf2 (pure Python, core fonts)."""

from __future__ import annotations

from fpdf import FPDF

_REPLACEMENTS = {
    "’": "'",
    "‘": "'",
    "“": '"',
    "”": '"',
    "–": "-",
    "—": "-",
    "≥": ">=",
    "≤": "<=",
    "…": "...",
}


def latin1(text: str) -> str:
    for wide, plain in _REPLACEMENTS.items():
        text = text.replace(wide, plain)
    return text.encode("latin-1", "replace").decode("latin-1")


def lines_to_pdf(lines: list[str], *, title: str) -> bytes:
    pdf = FPDF(format="Letter")
    pdf.set_title(latin1(title))
    pdf.set_creator("siltfence")
    pdf.set_auto_page_break(auto=True, margin=18)
    pdf.add_page()
    pdf.set_margins(20, 18, 20)
    for index, line in enumerate(lines):
        if index < 2:
            pdf.set_font("Helvetica", "B" if index == 0 else "", 14 if index == 0 else 10)
        elif line.isupper() or line.startswith(
            ("CONSTRUCTION", "DISAPPROVAL", "CONDITIONS", "APPEAL", "REQUIREMENTS")
        ):
            pdf.set_font("Helvetica", "B", 11)
        else:
            pdf.set_font("Helvetica", "", 10)
        pdf.multi_cell(0, 5.5, latin1(line) or " ", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())
