"""Each village's chapter copied under another number, name and id: the same law under
other numbers, no ordinance of anywhere. A test that answers the same questions for a
village and its copy holds that nothing in the answers comes from anywhere but the folder
(tests/unit/test_renumbered_chapter.py, tests/integration/test_renumbered_chapter_web.py).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

ORDINANCES = Path(__file__).resolve().parents[1] / "ordinances"

# Each village's copy: its id, and the replacements made in every file of its folder and
# in an answer, in order.
COPIES: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "spencer-wi": (
        "otherton-wi",
        (
            ("spencer-wi", "otherton-wi"),
            ("413-", "952-"),
            ('chapter: "413"', 'chapter: "952"'),  # jurisdiction.yaml
            ('"chapter": "413"', '"chapter": "952"'),  # an answer's JSON
            ("Ch. 413", "Ch. 952"),
            ("Spencer", "Otherton"),
        ),
    ),
    "new-glarus-wi": (
        "far-meadow-wi",
        (
            ("new-glarus-wi", "far-meadow-wi"),
            ("135-", "718-"),
            ('chapter: "135"', 'chapter: "718"'),
            ('"chapter": "135"', '"chapter": "718"'),
            ("Ch. 135", "Ch. 718"),
            ("New Glarus", "Far Meadow"),
        ),
    ),
}


def renamed(text: str, village: str) -> str:
    for old, new in COPIES[village][1]:
        text = text.replace(old, new)
    return text


def as_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def write_root(root: Path) -> Path:
    """``root`` made an ordinances folder holding both villages and their copies."""
    for village, (copy, _) in COPIES.items():
        shutil.copytree(ORDINANCES / village, root / village)
        for path in sorted((ORDINANCES / village).rglob("*")):
            if path.is_file():
                out = root / copy / path.relative_to(ORDINANCES / village)
                out.parent.mkdir(parents=True, exist_ok=True)
                text = path.read_text(encoding="utf-8")
                out.write_text(renamed(text, village), encoding="utf-8")
    return root
