"""How the village's Zoning Board of Appeals sits and decides: the ``board`` block of a
village's ``jurisdiction.yaml``.

Neither chapter says. Spencer § 413-12A: the board "shall use the rules, procedures, duties
and powers authorized by statute for zoning boards of appeals in hearing and deciding
appeals and authorizing variances"; New Glarus § 135-12A(3) in the same words. The statute
is not in hand, so the numbers (seats, alternates, quorum, the votes that decide) are the
village's data, each village's to confirm, with a gap note saying so.

Votes needed are written as a whole number of concurring votes (``4``), or as
``majority_of_seated`` (more than half of the members and alternates seated, a recused
member not counted) or ``majority_of_votes_cast`` (more than half of the votes for and
against; an abstention not counted).
"""

from __future__ import annotations

from dataclasses import dataclass

from siltfence.core.ordinance.schema import Citation, Context, fail

TYPE_CHECKING = False  # typing is not imported at run time: see siltfence/core/__init__.py
if TYPE_CHECKING:
    from typing import Any

MAJORITY_RULES = ("majority_of_seated", "majority_of_votes_cast")
# The statute names a first and a second alternate; the screens and the seating follow it.
MOST_ALTERNATES = 2
MOST_SEATS = 25


def _votes(value: Any, path: str, ctx: Context) -> None:
    if isinstance(value, bool) or not (isinstance(value, int) or value in MAJORITY_RULES):
        raise fail(
            ctx,
            path,
            "expected a whole number of concurring votes (such as 4), or "
            f"{' or '.join(MAJORITY_RULES)}; got {value!r}",
        )


BOARD_SPEC = {
    # The chapter's section that incorporates the statute's procedure.
    "citation": Citation,
    # The statute it is believed to incorporate (not in hand).
    "statute": Citation,
    "seats": int,
    "alternates": int,
    "quorum": int,
    # To reverse or modify the decision appealed, or to grant a variance.
    "to_reverse": _votes,
    # To affirm the decision appealed, or to deny a variance.
    "to_affirm": _votes,
    # How a party may take part in the hearing, as the hearing notice says it.
    "parties_may_appear": str,
    # false until the village has confirmed the numbers; ``note`` says where they come from.
    "confirmed": bool,
    "note": str,
    # The gap note (rules.yaml, by id) shown wherever the board's numbers decide something.
    "gap": str,
}


@dataclass(frozen=True)
class BoardRule:
    citation: str
    statute: str
    seats: int
    alternates: int
    quorum: int
    to_reverse: int | str
    to_affirm: int | str
    parties_may_appear: str
    confirmed: bool
    note: str
    gap: str

    @property
    def cites(self) -> str:
        """The chapter's section and the statute it incorporates, as a decision cites them."""
        return f"{self.citation}; {self.statute}"

    def needed_for(self, kind: str) -> int | str:
        """The votes a motion of ``kind`` needs (reverse, modify, grant; affirm, deny)."""
        return self.to_reverse if kind in REVERSING else self.to_affirm


# The motions that change the decision appealed, or grant what the chapter forbids.
REVERSING = ("reverse", "modify", "grant")
KEEPING = ("affirm", "deny")


def check_board(value: dict[str, Any], ctx: Context, *, key: str, gaps: set[str]) -> None:
    """The numbers fit together: a quorum is a majority of the seats at most all of them, and
    a number of votes fits the seats and is more than half of a quorum. ``value`` has the
    shape of ``BOARD_SPEC`` already."""

    def refuse(name: str, reason: str) -> None:
        raise fail(ctx, f"{key}.{name}", reason)

    seats, quorum, alternates = value["seats"], value["quorum"], value["alternates"]
    if not 1 <= seats <= MOST_SEATS:
        refuse("seats", f"expected 1 to {MOST_SEATS} seats; got {seats}")
    if not 0 <= alternates <= MOST_ALTERNATES:
        refuse(
            "alternates",
            f"expected 0, 1 or {MOST_ALTERNATES} (a first and a second alternate); got "
            f"{alternates}",
        )
    if not seats < 2 * quorum or quorum > seats:
        refuse(
            "quorum",
            f"expected more than half of the {seats} seats and at most all of them "
            f"({seats // 2 + 1} to {seats}); got {quorum}",
        )
    for name in ("to_reverse", "to_affirm"):
        votes = value[name]
        if isinstance(votes, int) and not (quorum < 2 * votes and votes <= seats):
            refuse(
                name,
                f"expected more than half of the quorum of {quorum} and at most the {seats} "
                f"seats ({quorum // 2 + 1} to {seats}); got {votes}",
            )
    if value["gap"] not in gaps:
        refuse("gap", f"names no gap of rules.yaml: {value['gap']!r}")


def board_of(value: dict[str, Any]) -> BoardRule:
    return BoardRule(**{name: value[name] for name in BOARD_SPEC})
