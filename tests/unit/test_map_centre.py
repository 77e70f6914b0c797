"""Where a village's site map opens is the village's data (jurisdiction.yaml), checked
on loading like every other key."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_loader import ORDINANCES, broken, refusal

from siltfence.core.ordinance.loader import load_folder


def test_each_village_map_opens_on_the_centre_its_data_gives() -> None:
    spencer = load_folder(ORDINANCES / "spencer-wi")
    new_glarus = load_folder(ORDINANCES / "new-glarus-wi")
    assert spencer.map_centre == (44.7573, -90.2966)
    assert new_glarus.map_centre == (42.8136, -89.6351)


@pytest.mark.parametrize(
    "old, new, says",
    [
        ("latitude: 44.7573", "latitude: 144.7573", "map_centre.latitude: 144.7573 is not a"),
        ("longitude: -90.2966", "longitude: -190.2966", "map_centre.longitude: -190.2966"),
        ("latitude: 44.7573", "latitude: north", "map_centre.latitude"),
        ("map_centre:\n  latitude: 44.7573\n  longitude: -90.2966\n", "", "map_centre"),
    ],
    ids=[
        "a latitude beyond the pole is refused",
        "a longitude beyond the date line is refused",
        "a latitude that is a word is refused",
        "a village without a map centre is refused",
    ],
)
def test_a_wrong_or_missing_map_centre_is_refused_naming_the_key(
    tmp_path: Path, old: str, new: str, says: str
) -> None:
    message = refusal(broken(tmp_path, "spencer-wi", "jurisdiction.yaml", old, new))
    assert "spencer-wi/jurisdiction.yaml" in message
    assert says in message
