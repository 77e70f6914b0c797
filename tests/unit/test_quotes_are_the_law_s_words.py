"""What the ordinance data puts in quotation marks is the law's own words.

Every passage of four words or more quoted ("...") in a village's rules.yaml or
parameters.yaml must be found, word for word, in the texts kept beside it (source*.txt:
the chapter, and the counting rule it relies on). A paraphrase in quotation marks is how a
wrong word reaches a letter: "less than five acres" was once quoted for § 135-4A(2)(c),
whose words are "under five acres".
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

ORDINANCES = Path(__file__).resolve().parents[2] / "ordinances"
VILLAGES = sorted(p.name for p in ORDINANCES.iterdir() if (p / "rules.yaml").exists())


def _strings(value: Any):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text).lower()


def quoted_passages(village: str) -> list[tuple[str, str]]:
    found = []
    for name in ("rules.yaml", "parameters.yaml"):
        data = yaml.safe_load((ORDINANCES / village / name).read_text(encoding="utf-8"))
        for text in _strings(data):
            for quote in re.findall(r'"([^"]+)"', text):
                # "A ... B" quotes two passages with words left out between them.
                for part in re.split(r"\.\.\.|…", quote):
                    part = part.strip(" ,.;:")
                    if len(part.split()) >= 4:
                        found.append((name, part))
    return found


@pytest.mark.parametrize("village", VILLAGES)
def test_every_quoted_passage_is_in_the_texts_kept_beside_the_data(village):
    texts = _plain(
        " ".join(p.read_text(encoding="utf-8") for p in (ORDINANCES / village).glob("source*.txt"))
    )
    passages = quoted_passages(village)
    assert len(passages) >= 10, "the data quotes its chapter; the check must see the quotes"
    missing = [(name, p) for name, p in passages if _plain(p) not in texts]
    assert missing == [], f"quoted but not in the texts: {missing}"
