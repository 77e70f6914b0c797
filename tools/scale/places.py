"""The county's municipalities: names, places, office calendars, and the ordinance folders
that let each one run on a chapter already encoded.

A ``Village`` row's id is the name of its ordinance folder, and everything that reads the
law loads it by that id. A municipality that uses another's ordinance therefore gets a
folder of its own, in an ordinance root the generator writes (``SILTFENCE_ORDINANCES``):
its ``jurisdiction.yaml`` says its own id, name and map centre, and every other file is a
link to the file of the chapter it copies, so the rules are the same rules, not a second
copy to keep in step. ``copy.yaml`` beside them names the original. The encoded chapters
themselves appear in that root as links to their folders. Nothing in the models changes,
and a server started with ``SILTFENCE_ORDINANCES`` set to the root serves every one.
"""

from __future__ import annotations

import datetime
import math
import os
import random
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

COPY_FILE = "copy.yaml"
JURISDICTION_FILE = "jurisdiction.yaml"

FIRST = [
    "Alder",
    "Ash",
    "Aspen",
    "Basswood",
    "Beaver",
    "Birch",
    "Bluebird",
    "Boulder",
    "Cattail",
    "Cedar",
    "Chickadee",
    "Clover",
    "Cottonwood",
    "Crane",
    "Deer",
    "Dogwood",
    "Eagle",
    "Elk",
    "Elm",
    "Fern",
    "Fox",
    "Granite",
    "Hazel",
    "Heron",
    "Hickory",
    "Ironwood",
    "Juniper",
    "Kettle",
    "Larch",
    "Lark",
    "Linden",
    "Maple",
    "Marsh",
    "Meadow",
    "Mill",
    "Moss",
    "Nettle",
    "Oak",
    "Otter",
    "Owl",
    "Pine",
    "Plover",
    "Poplar",
    "Quail",
    "Quarry",
    "Raven",
    "Rush",
    "Sand",
    "Sorrel",
    "Spruce",
    "Stone",
    "Sumac",
    "Tamarack",
    "Thistle",
    "Trillium",
    "Tupelo",
    "Umber",
    "Vetch",
    "Walnut",
    "Willow",
    "Wolf",
    "Wren",
    "Yarrow",
    "Yew",
    "Zephyr",
]
SECOND = [
    "Bay",
    "Bluff",
    "Center",
    "Corners",
    "Creek",
    "Crossing",
    "Falls",
    "Glen",
    "Grove",
    "Hill",
    "Hollow",
    "Junction",
    "Lake",
    "Mills",
    "Point",
    "Prairie",
    "Rapids",
    "Ridge",
    "Springs",
    "Valley",
]
KINDS = (("Village", 0.6), ("City", 0.15), ("Town", 0.25))
# How far a municipality lies from the station it is placed near, in km.
NEAR_KM = (6.0, 35.0)


@dataclass(frozen=True)
class Municipality:
    id: str
    name: str
    base: str  # the ordinance folder whose chapter it uses
    latitude: float
    longitude: float
    prefix: str  # what the record's numbers start with (SP-2026-0001)
    festival: tuple[int, int]  # month, day: the municipality's own office closure


def prefix_of(village_id: str) -> str:
    """The initials the permit services number a village's records with."""
    parts = village_id.split("-")[:-1]
    return (parts[0][:2] if len(parts) == 1 else "".join(p[0] for p in parts)).upper()


def municipalities(
    count: int,
    *,
    seed: int,
    bases: list[str],
    near: list[tuple[float, float]],
    taken_prefixes: set[str],
) -> list[Municipality]:
    """``count`` municipalities with names whose initials no other village uses (the
    record's numbers are unique across villages), each placed near one of ``near`` in turn
    and using the chapters of ``bases`` in turn."""
    rng = random.Random(f"municipalities-{seed}")
    combos = [(a, b) for a in FIRST for b in SECOND]
    rng.shuffle(combos)
    used = set(taken_prefixes)
    chosen: list[tuple[str, str]] = []
    for first, second in combos:
        prefix = first[0] + second[0]
        if prefix in used:
            continue
        used.add(prefix)
        chosen.append((first, second))
        if len(chosen) == count:
            break
    if len(chosen) < count:
        raise ValueError(
            f"municipalities: at most {len(chosen)} can be named with initials of their own; "
            f"{count} were asked for"
        )
    found = []
    for index, (first, second) in enumerate(chosen):
        kind = rng.choices([k for k, _ in KINDS], weights=[w for _, w in KINDS])[0]
        lat0, lon0 = near[index % len(near)]
        distance = rng.uniform(*NEAR_KM)
        bearing = rng.uniform(0, 2 * math.pi)
        latitude = lat0 + distance * math.cos(bearing) / 111.2
        longitude = lon0 + distance * math.sin(bearing) / (111.2 * math.cos(math.radians(lat0)))
        found.append(
            Municipality(
                id=f"{first}-{second}-wi".lower(),
                name=f"{kind} of {first} {second}",
                base=bases[index % len(bases)],
                latitude=round(latitude, 5),
                longitude=round(longitude, 5),
                prefix=(first[0] + second[0]).upper(),
                festival=(rng.choice([6, 7, 8, 9]), rng.randint(1, 28)),
            )
        )
    return found


def own_closures(
    place: Municipality, years: range, holidays: Any | None
) -> list[tuple[datetime.date, str]]:
    """The office's closed days: the state's legal holidays (``holidays``, the chapter's
    calendar of them) where the chapter counts business days, as ``village_sync`` seeds
    them, and the municipality's own days."""
    days: dict[datetime.date, str] = {}
    rng = random.Random(f"closures-{place.id}")
    eve = rng.random() < 0.6
    friday = rng.random() < 0.5
    for year in years:
        if holidays is not None:
            for day, name in holidays.in_year(year).items():
                days[day] = f"{name} (legal holiday)"
        month, day_of_month = place.festival
        days.setdefault(
            datetime.date(year, month, day_of_month),
            f"{place.name.split(' of ', 1)[1]} Days (office closed)",
        )
        if eve:
            days.setdefault(datetime.date(year, 12, 24), "Christmas Eve (office closed)")
        if friday:
            november = datetime.date(year, 11, 1)
            thursday = november + datetime.timedelta(days=(3 - november.weekday()) % 7 + 21)
            days.setdefault(
                thursday + datetime.timedelta(days=1), "Day after Thanksgiving (office closed)"
            )
    return sorted(days.items())


def base_ids(root: Path) -> list[str]:
    """The chapters encoded in ``root``: its folders that are not copies."""
    from siltfence.core.ordinance.loader import jurisdiction_ids

    return [i for i in jurisdiction_ids(root) if not (root / i / COPY_FILE).is_file()]


def county_root_write(root: Path, source: Path, places: list[Municipality]) -> None:
    """The ordinance root of the county: each encoded chapter of ``source`` as a link, and a
    folder for each municipality (see the module's docstring). Rewritten when run again."""
    root.mkdir(parents=True, exist_ok=True)
    same = root.resolve() == source.resolve()
    for base in base_ids(source):
        target = (source / base).resolve()
        link = root / base
        if same or link.resolve() == target:
            continue
        if link.is_symlink() or link.is_file():
            link.unlink()
        elif link.is_dir():
            shutil.rmtree(link)
        _link(link, target)
    wanted = {p.id: p for p in places}
    # Copies written before (another seed's county) follow their chapter's data too: every
    # folder of the root must load.
    for folder in sorted(root.iterdir()):
        if folder.name not in wanted and (folder / COPY_FILE).is_file():
            known = yaml.safe_load((folder / COPY_FILE).read_text("utf-8"))
            wanted[folder.name] = Municipality(
                id=folder.name,
                name=known["name"],
                base=known["copy_of"],
                latitude=known["latitude"],
                longitude=known["longitude"],
                prefix=prefix_of(folder.name),
                festival=(7, 1),
            )
    for place in wanted.values():
        _copy_write(root, place)


def _copy_write(root: Path, place: Municipality) -> None:
    folder = root / place.id
    original = (root / place.base).resolve()
    folder.mkdir(exist_ok=True)
    for item in original.iterdir():
        if item.name in (JURISDICTION_FILE, COPY_FILE) or item.name.startswith("."):
            continue
        link = folder / item.name
        if link.is_symlink() or link.exists():
            if link.resolve() == item.resolve():
                continue
            if link.is_dir() and not link.is_symlink():
                shutil.rmtree(link)
            else:
                link.unlink()
        _link(link, item.resolve())
    data: dict[str, Any] = yaml.safe_load((original / JURISDICTION_FILE).read_text("utf-8"))
    chapter_of = data.get("name", place.base)
    data["id"] = place.id
    data["name"] = place.name
    data["map_centre"] = {"latitude": place.latitude, "longitude": place.longitude}
    data["history"] = (
        f"A municipality of the scale demo (python -m tools.scale), not a real one: it uses "
        f"the chapter of {chapter_of} ({place.base}) as it stands. " + str(data.get("history", ""))
    )
    _write_if_changed(folder / JURISDICTION_FILE, yaml.safe_dump(data, sort_keys=False))
    copy = {
        "copy_of": place.base,
        "name": place.name,
        "latitude": place.latitude,
        "longitude": place.longitude,
        "made_by": "python -m tools.scale",
    }
    _write_if_changed(folder / COPY_FILE, yaml.safe_dump(copy, sort_keys=False))


def _link(link: Path, target: Path) -> None:
    try:
        os.symlink(target, link, target_is_directory=target.is_dir())
    except OSError:  # a file system without links: copy instead
        if target.is_dir():
            shutil.copytree(target, link)
        else:
            shutil.copy2(target, link)


def _write_if_changed(path: Path, text: str) -> None:
    # An unchanged file keeps its modification time, so the loader's cache stays valid.
    if not path.is_file() or path.read_text("utf-8") != text:
        path.write_text(text, "utf-8")
