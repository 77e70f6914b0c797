"""Read one YAML file strictly.

- A duplicate key is an error naming its dotted path, not a silent overwrite.
- Only ``true`` and ``false`` are booleans: YAML 1.1's ``yes``, ``no``, ``on`` and ``off``
  stay words, so a key written ``on`` is never read as True.
- Dates stay text unless asked: the schema checks them (so an impossible date such as
  1993-13-04 is reported with its file and key), and the loader converts them.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import yaml

from siltfence.core.errors import OrdinanceFileError

_BaseLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_BOOL = "tag:yaml.org,2002:bool"


@functools.cache
def _loader(*, dates_as_text: bool) -> type[yaml.SafeLoader]:
    """libyaml's fast safe loader with only true/false as booleans, and dates as text when
    asked."""
    dropped = {_BOOL, _TIMESTAMP} if dates_as_text else {_BOOL}

    class StrictLoader(_BaseLoader):  # type: ignore[misc,valid-type]
        pass

    loader: type[yaml.SafeLoader] = StrictLoader
    loader.yaml_implicit_resolvers = {
        first: [(tag, pattern) for tag, pattern in resolvers if tag not in dropped]
        for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
    }
    loader.add_implicit_resolver(
        _BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
    )
    return loader


def _check_duplicates(node: yaml.Node, path: str, file: str) -> None:
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = str(key_node.value) if isinstance(key_node, yaml.ScalarNode) else "?"
            dotted = f"{path}.{key}" if path else key
            line = key_node.start_mark.line + 1
            if key in seen:
                raise OrdinanceFileError(
                    file,
                    dotted,
                    f"duplicate key (first at line {seen[key]}, again at line {line}); "
                    "remove one of them",
                )
            seen[key] = line
            _check_duplicates(value_node, dotted, file)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _check_duplicates(item, f"{path}[{index}]", file)


def read_yaml(path: Path, display_name: str, *, dates_as_text: bool = True) -> Any:
    """Parse ``path``; any syntax or duplicate-key problem names ``display_name``."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise OrdinanceFileError(display_name, "", f"cannot be read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise OrdinanceFileError(display_name, "", "is not UTF-8 text") from None
    loader = _loader(dates_as_text=dates_as_text)(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_duplicates(node, "", display_name)
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise OrdinanceFileError(display_name, where, f"is not valid YAML: {problem}") from None
    finally:
        loader.dispose()
