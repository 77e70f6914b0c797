"""The bounded JSON reader: size and nesting are measured before anything is parsed."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanging import returns_within
from siltfence.core.errors import SiltfenceError
from siltfence.core.jsonread import MAX_DEPTH, nesting_depth, read_json


def refusal(data: str | bytes, **bounds: int) -> str:
    with pytest.raises(SiltfenceError) as refused:
        read_json(data, what="plan", **bounds)
    assert refused.value.field == "plan"
    return str(refused.value)


@pytest.mark.parametrize(
    "document",
    ["[" * 100_000 + "]" * 100_000, '{"a":' * 100_000 + "1" + "}" * 100_000, "[" * 100_000],
    ids=["arrays", "objects", "unclosed"],
)
def test_a_document_nested_100000_levels_deep_is_refused_without_recursing(document):
    said = returns_within(refusal, document)
    assert said == f"plan: the JSON is nested more than {MAX_DEPTH} levels deep"


def test_nesting_at_the_bound_is_read_and_one_level_more_is_refused():
    assert read_json("[" * MAX_DEPTH + "]" * MAX_DEPTH, what="plan") is not None
    refusal("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))


def test_brackets_inside_strings_are_not_nesting():
    text = json.dumps({"note": "[[[[{{{{" * 100, "quote": 'a "[" b \\ [[['})
    assert nesting_depth(text) == 1
    assert read_json(text, what="plan")["note"].startswith("[[[[")


def test_a_document_over_the_size_bound_is_refused_before_it_is_read():
    assert refusal(" " * 1_001 + "{}", max_bytes=1_000) == (
        "plan: the document is larger than 1,000 bytes"
    )


@pytest.mark.parametrize(
    ("document", "reason"),
    [
        ("NaN", "NaN is not a number JSON allows"),
        ('{"x": Infinity}', "Infinity is not a number JSON allows"),
        ("1e400", "too large to be a measurement"),
        ("9" * 3_000, "too long to be a measurement"),
        ("{not json", "not valid JSON"),
        (b"\xff\xfe{}", "not UTF-8 text"),
    ],
)
def test_numbers_no_measurement_has_and_text_that_is_not_json_are_refused(document, reason):
    assert reason in refusal(document)


def test_a_byte_order_mark_is_allowed():
    assert read_json(b'\xef\xbb\xbf{"a": 1}', what="plan") == {"a": 1}


@settings(deadline=timedelta(milliseconds=500), max_examples=200)
@given(
    text=st.one_of(
        st.text(alphabet='[]{}",:0123456789.eE-\\ ntrufals', max_size=300),
        st.recursive(
            st.none() | st.booleans() | st.floats(allow_nan=False) | st.text(max_size=5),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(st.text(max_size=3), inner, max_size=3)
            ),
            max_leaves=30,
        ).map(json.dumps),
    )
)
def test_any_text_is_read_as_json_loads_would_or_refused_naming_what_was_read(text):
    try:
        value = read_json(text, what="plan")
    except SiltfenceError as exc:
        assert exc.field == "plan" and str(exc).startswith("plan: ")
        return
    assert value == json.loads(text)


@pytest.mark.parametrize(
    "document",
    ['{"area": 1, "area": 2}', '{"a": {"b": 1, "b": 1}}', '[{"x": 1}, {"y": 1, "y": 2}]'],
)
def test_a_name_twice_in_one_object_is_refused_not_resolved(document):
    with pytest.raises(SiltfenceError, match="appears twice in one object") as refused:
        read_json(document, what="facts")
    assert refused.value.field == "facts"


def test_the_same_name_in_two_objects_is_fine():
    assert read_json('[{"x": 1}, {"x": 2}]', what="facts") == [{"x": 1}, {"x": 2}]


@pytest.mark.parametrize("number", ["5e-400", "-1.5E-999", "0.5e-400"])
def test_a_number_too_small_for_a_float_is_refused_not_read_as_zero(number):
    with pytest.raises(SiltfenceError, match="too small to be a measurement"):
        read_json(f'{{"inches": {number}}}', what="body")


@pytest.mark.parametrize("number", ["0.0", "0e-400", "-0.0", "0.000e5"])
def test_zero_written_as_zero_is_zero(number):
    assert read_json(f'{{"inches": {number}}}', what="body") == {"inches": 0.0}
