"""Reading the worked-case files beside the ordinances, strictly, for the collectors."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent


class MalformedCase(Exception):
    """A case file that does not follow the format; collection stops on it."""


def _strict_loader(*, dates_as_text: bool) -> type[yaml.SafeLoader]:
    """A YAML loader refusing duplicate keys, with only ``true``/``false`` as booleans (so
    a key such as ``on`` is never read as True), and dates left as text when asked."""
    dropped = {"tag:yaml.org,2002:bool"} | (
        {"tag:yaml.org,2002:timestamp"} if dates_as_text else set()
    )

    class Loader(yaml.SafeLoader):
        pass

    Loader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag not in dropped]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    Loader.add_implicit_resolver(
        "tag:yaml.org,2002:bool",
        re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
        list("tTfF"),
    )

    def mapping(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False) -> Any:
        seen: set[Any] = set()
        for key_node, _value in node.value:
            key = loader.construct_object(key_node, deep=True)
            if key in seen:
                raise MalformedCase(f"duplicate key {key!r} at line {key_node.start_mark.line + 1}")
            seen.add(key)
        return loader.construct_mapping(node, deep=deep)

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    return Loader


def read_cases(path: Path, *, dates_as_text: bool) -> Any:
    """The parsed content of one case file (duplicate keys are a ``MalformedCase``)."""
    return yaml.load(
        path.read_text(encoding="utf-8"), Loader=_strict_loader(dates_as_text=dates_as_text)
    )
