"""Where the rules a design check applies are written, as the village's data says.

The checks are the same physics for every village; what differs is the text they apply.
A village whose chapter states its own rules gives, in ``rules.yaml`` under ``design``, the
citation of the rule each check applies, the provision that limits the rules to runoff
leaving the site, and where its authority identifies the design criteria the text leaves
open. A village whose chapter incorporates technical standards instead has each check cite
the standards its values were entered from. The checks hold no section number of their own:
called without ``Provisions`` they cite "the chapter" and name "the authority".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# What a check cites when no village's data says where its rule is written.
UNCITED = "the chapter"


@dataclass(frozen=True)
class Provisions:
    """The citations and words a design check writes into its answer.

    ``checks``: the citation of the rule each check applies, by check id (``dewatering``,
    ``sediment-basin``, ...); a check not named there cites ``fallback``. ``authority``: the
    title of whoever decides what the text leaves open. ``runoff_leaving_site``: the
    provision whose rules hold only where runoff leaves the site. ``design_criteria``: where
    the authority identifies or approves design criteria. ``design_storms``: where the design
    storms are stated. ``day_counting``: how days are counted, as a sentence.
    ``chapter``: the rule is the chapter's own text, so the notes that read its wording (its
    NOTE, its last sentence, its gaps) apply; False when the numbers come from incorporated
    standards.
    """

    checks: Mapping[str, str] = field(default_factory=dict)
    fallback: str = UNCITED
    authority: str = "authority"
    runoff_leaving_site: str | None = None
    design_criteria: str | None = None
    design_storms: str | None = None
    day_counting: str | None = None
    chapter: bool = True

    def cite(self, check: str) -> str:
        """The citation of the rule ``check`` applies."""
        return self.checks.get(check, self.fallback)

    def scope(self, check: str) -> str:
        """The provision that does not apply when runoff stays on the site."""
        return self.runoff_leaving_site or self.cite(check)

    @property
    def criteria(self) -> str:
        """`` (§ ...)`` naming where design criteria are identified, or nothing."""
        return f" ({self.design_criteria})" if self.design_criteria else ""


# Where no village's data is given.
UNSTATED = Provisions()
