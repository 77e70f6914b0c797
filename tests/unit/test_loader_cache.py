"""The compiled-ordinance cache never serves a stale or unchecked chapter."""

from __future__ import annotations

import dataclasses
import shutil

import pytest

from siltfence.core.errors import OrdinanceFileError
from siltfence.core.ordinance.loader import load_folder, ordinances_root
from siltfence.core.ordinance.model import Ordinance


def same_chapter(a, b) -> bool:
    """Field by field: a loaded chapter is compared by identity (one per process)."""
    return a is not b and all(
        getattr(a, f.name) == getattr(b, f.name) for f in dataclasses.fields(Ordinance)
    )


@pytest.fixture
def spencer(tmp_path, monkeypatch):
    monkeypatch.setenv("SILTFENCE_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "spencer-wi"
    shutil.copytree(ordinances_root() / "spencer-wi", folder)
    return folder


def test_a_second_load_comes_from_the_cache_and_equals_the_first(spencer, tmp_path):
    first = load_folder(spencer)
    assert list((tmp_path / "cache").glob("ordinance-*.json"))
    second = load_folder(spencer)
    assert same_chapter(second, first)
    assert second.parameter("area_trigger", first.adopted).value == 4000


def test_an_edited_file_is_read_and_checked_again(spencer):
    load_folder(spencer)
    parameters = spencer / "parameters.yaml"
    parameters.write_text(parameters.read_text().replace("value: 4000", "value: 4500"))
    assert load_folder(spencer).parameters["area_trigger"].values[0].value == 4500
    parameters.write_text(parameters.read_text().replace("value: 4500", "value: lots"))
    with pytest.raises(OrdinanceFileError, match="area_trigger"):
        load_folder(spencer)


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"not json",
        b"[1, 2]",
        b'{"jurisdiction.yaml": 5}',
        b"[" * 100_000,
        # What a pickle that runs code looks like: read as JSON, it is only refused text.
        b"cos\nsystem\n(S'touch pwned'\ntR.",
    ],
)
def test_a_damaged_or_hostile_cache_entry_is_ignored_and_runs_nothing(spencer, tmp_path, damage):
    first = load_folder(spencer)
    [entry] = (tmp_path / "cache").glob("ordinance-*.json")
    entry.write_bytes(damage)
    again = load_folder(spencer)
    assert same_chapter(again, first)
    assert not (tmp_path / "pwned").exists()


def test_every_module_of_the_core_that_shapes_a_loaded_chapter_is_in_the_cache_key(spencer):
    """A change to the code that reads or checks a chapter (here the YAML reader, whose
    booleans a change could alter) is a fresh read, never a chapter cached by older code."""
    import importlib
    import os

    from siltfence.core.ordinance import cache

    before = cache._cache_key(spencer)
    for name in ("yamlfile", "loader", "checks", "schema", "sentences", "specs", "states"):
        module = importlib.import_module(f"siltfence.core.ordinance.{name}")
        stat = os.stat(module.__file__)
        try:
            os.utime(module.__file__, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))
            assert cache._cache_key(spencer) != before, name
        finally:
            os.utime(module.__file__, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def test_an_entry_read_from_other_files_is_not_served(spencer, tmp_path):
    """The entry keeps the whole key it was read from: an entry whose key differs (written
    by another version of the files or of the code, under the same name) is read afresh."""
    import json

    load_folder(spencer)
    [entry] = (tmp_path / "cache").glob("ordinance-spencer-wi-*.json")
    kept = json.loads(entry.read_text(encoding="utf-8"))
    [first_day] = list(kept["raw"]["parameters.yaml"]["area_trigger"]["values"])[:1]
    kept["raw"]["parameters.yaml"]["area_trigger"]["values"][first_day]["value"] = 1
    kept["key"] = kept["key"].replace("parameters.yaml:", "parameters.yaml:9", 1)
    entry.write_text(json.dumps(kept), encoding="utf-8")
    assert load_folder(spencer).parameters["area_trigger"].values[0].value == 4000
    kept["key"] = json.loads(entry.read_text(encoding="utf-8"))["key"]
    entry.write_text(json.dumps(kept), encoding="utf-8")
    # The same key: the entry is served as kept (how the test knows it was read at all).
    assert load_folder(spencer).parameters["area_trigger"].values[0].value == 1
