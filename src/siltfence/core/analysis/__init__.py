"""Analysis over many projects at once: the vectorised determination and what an
ordinance amendment would change (DESIGN.md capability 14)."""

from siltfence.core.analysis.amendment import Report, compare, report_text, with_proposed
from siltfence.core.analysis.projects import ProjectsError, columns_from_records, read_projects
from siltfence.core.analysis.sample import sample_projects
from siltfence.core.analysis.vector import Columns, Judged, judge

__all__ = [
    "Columns",
    "Judged",
    "ProjectsError",
    "Report",
    "columns_from_records",
    "compare",
    "judge",
    "read_projects",
    "report_text",
    "sample_projects",
    "with_proposed",
]
