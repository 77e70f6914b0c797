"""What differs between two villages' words on one topic, marked word by word.

Both sides are compared as one run of words each (difflib's longest matching blocks);
the words only one side has are wrapped in ``<mark>``, so a reader sees "45 days" against
"30 business days" at a glance. Everything else is escaped as usual.
"""

from __future__ import annotations

import difflib
import re

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

_WORDS = re.compile(r"\S+\s*")


def _marked(tokens: list[str], changed: set[int]) -> str:
    out: list[str] = []
    for index, token in enumerate(tokens):
        word: str = escape(token.rstrip())
        space = token[len(token.rstrip()) :]
        if index in changed:
            word = f'<mark class="changed">{word}</mark>'
        out.append(word + space)
    return "".join(out)


def differences(left: list[str], right: list[str]) -> tuple[list[SafeString], list[SafeString]]:
    """Each entry of ``left`` and ``right`` with the words the other side lacks marked."""
    left_tokens = [_WORDS.findall(entry) for entry in left]
    right_tokens = [_WORDS.findall(entry) for entry in right]
    flat_left = [t.strip().lower() for tokens in left_tokens for t in tokens]
    flat_right = [t.strip().lower() for tokens in right_tokens for t in tokens]
    matcher = difflib.SequenceMatcher(a=flat_left, b=flat_right, autojunk=False)
    changed_left: set[int] = set()
    changed_right: set[int] = set()
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            changed_left.update(range(i1, i2))
            changed_right.update(range(j1, j2))
    return _split(left_tokens, changed_left), _split(right_tokens, changed_right)


def _split(entries: list[list[str]], changed: set[int]) -> list[SafeString]:
    out: list[SafeString] = []
    offset = 0
    for tokens in entries:
        local = {i - offset for i in changed if offset <= i < offset + len(tokens)}
        out.append(mark_safe(_marked(tokens, local)))  # every word was escaped in _marked
        offset += len(tokens)
    return out
