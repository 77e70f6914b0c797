"""Read one YAML file strictly: duplicate keys are an error, not a silent overwrite."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from siltfence.core.errors import OrdinanceFileError

_BaseLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _StrictLoader(_BaseLoader):  # type: ignore[misc,valid-type]
    """libyaml's fast safe loader, refusing duplicate keys (openfisca-core does the same)."""


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False) -> Any:
    seen: dict[Any, int] = {}
    for key_node, _value_node in node.value:
        key = loader.construct_object(key_node, deep=True)  # type: ignore[no-untyped-call]
        if key in seen:
            raise OrdinanceFileError(
                str(getattr(loader, "name", "?")),
                str(key),
                f"duplicate key (first at line {seen[key] + 1}, again at line "
                f"{key_node.start_mark.line + 1}); remove one of them",
            )
        seen[key] = key_node.start_mark.line
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def read_yaml(path: Path, display_name: str) -> Any:
    """Parse ``path``; any syntax or duplicate-key problem names ``display_name``."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise OrdinanceFileError(display_name, "", f"cannot be read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise OrdinanceFileError(display_name, "", "is not UTF-8 text") from None
    loader = _StrictLoader(text)
    loader.name = display_name
    try:
        return loader.get_single_data()
    except OrdinanceFileError:
        raise
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise OrdinanceFileError(display_name, where, f"is not valid YAML: {problem}") from None
    finally:
        loader.dispose()
