"""A list's table as the page shows it, written out by hand: the region that scrolls on its
own and its label, the stacked table's headings, each cell labelled with its heading for a
phone's width, the row's class, and every text escaped but the cells' own markup."""

from __future__ import annotations

from siltfence.presentation.tables import Column, Item, Table, cite

TABLE = Table[dict](
    name="t",
    label="the <review> queue",
    testid="queue&1",
    row_class=lambda r: r["class"],
    columns=(
        Column("Due <day>", lambda r: r["due"], empty="-"),
        Column("Section", lambda r: r["section"], markup=cite),
        Column("Days left", lambda r: r["left"], strong=lambda r: r["left"] == 0),
        Column("Application", lambda r: r["number"], link=lambda r: f"/a/{r['number']}?x=1&y=2"),
        Column("Notes", lambda r: r["notes"]),
    ),
)
ROWS = [
    {
        "class": 'overdue "x"',
        "due": "2026-07-09",
        "section": "§ 413-10E",
        "left": 0,
        "number": "A&1",
        "notes": [Item("x<y", "§ 413-8E"), "plain"],
    },
    {"class": "", "due": None, "section": "", "left": 3, "number": "B", "notes": []},
]


def test_the_table_is_written_out_as_the_page_shows_it():
    assert str(TABLE.page(ROWS)) == (
        '<div class="table-wrap" tabindex="0" role="region" aria-label="The &lt;review&gt; '
        'queue"><table class="usa-table usa-table--borderless usa-table--stacked" '
        'data-testid="queue&amp;1">\n'
        '<thead><tr><th scope="col">Due &lt;day&gt;</th><th scope="col">Section</th>'
        '<th scope="col">Days left</th><th scope="col">Application</th>'
        '<th scope="col">Notes</th></tr></thead>\n'
        "<tbody>"
        '<tr class="overdue &quot;x&quot;">\n'
        '<td data-label="Due &lt;day&gt;">2026-07-09</td>\n'
        '<td data-label="Section"><span class="cite">§ 413-10E</span></td>\n'
        '<td data-label="Days left"><strong>0</strong></td>\n'
        '<td data-label="Application"><a href="/a/A&amp;1?x=1&amp;y=2">A&amp;1</a></td>\n'
        '<td data-label="Notes">x&lt;y <span class="cite">§ 413-8E</span><br>plain</td>\n'
        "</tr>\n"
        "<tr>\n"
        '<td data-label="Due &lt;day&gt;">-</td>\n'
        '<td data-label="Section"></td>\n'
        '<td data-label="Days left">3</td>\n'
        '<td data-label="Application"><a href="/a/B?x=1&amp;y=2">B</a></td>\n'
        '<td data-label="Notes"></td>\n'
        "</tr>\n"
        "</tbody></table></div>\n"
    )


def test_a_table_with_no_label_nor_rows_is_a_bare_table():
    bare = Table[str](name="t", columns=(Column("H", lambda r: r),))
    assert str(bare.page([])) == (
        '<div class="table-wrap"><table class="usa-table usa-table--borderless '
        'usa-table--stacked">\n<thead><tr><th scope="col">H</th></tr></thead>\n'
        "<tbody></tbody></table></div>\n"
    )
