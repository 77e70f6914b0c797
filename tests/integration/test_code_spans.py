"""Names between backticks in the API's descriptions read as code on the page, and the
text around them stays escaped."""

from __future__ import annotations

from siltfence.apps.web.templatetags.siltfence import code_spans


def test_names_between_backticks_are_code_and_everything_is_escaped() -> None:
    assert code_spans("a `rain_in` column <b>") == "a <code>rain_in</code> column &lt;b&gt;"
    assert code_spans("`<script>`") == "<code>&lt;script&gt;</code>"
    # An unpaired backtick is left as written, escaped.
    assert code_spans("it's `odd & <i>") == "it&#x27;s `odd &amp; &lt;i&gt;"
