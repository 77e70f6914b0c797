"""Spencer's design provisions and design storms, read from its ordinance data.

The checks hold no village's citations or storms: the design review passes them from the
village's data. A test that calls a check as the review does for Spencer takes them here.
"""

from siltfence.core.engineering.storms import storms_of
from siltfence.core.engineering.values import chapter_provisions
from siltfence.core.ordinance.loader import load

SPENCER = load("spencer-wi")
PROVISIONS = chapter_provisions(SPENCER)
STORMS = storms_of(SPENCER.rules["design_storms"])
