"""A side's label in a page's text is wrapped so that it never breaks at its dash
(``span.side``, white-space: nowrap); in a tag's attributes, a script, a style, the title,
a form's option or an SVG drawing it is left as it is, and the text reads the same."""

from __future__ import annotations

import re

from duplicate.review.render import nowrap_sides


def test_text_labels_are_wrapped_and_nothing_else() -> None:
    page = ('<title>N–S</title><p title="N–S up 2">N–S up 2, E–W: Team A</p>'
            '<script>var w = "N–S";</script><style>/* E–W */</style>'
            '<select><option>N–S</option></select><svg><text>N–S +2</text></svg>'
            "<!-- N–S --><p>NN–S E–WW 南北</p>")
    out = nowrap_sides(page)
    assert out.count('<span class="side">') == 2
    assert '<p title="N–S up 2"><span class="side">N–S</span> up 2, <span class="side">E–W</span>: Team A</p>' in out
    assert re.sub(r'<span class="side">(N–S|E–W)</span>', r"\1", out) == page
    assert nowrap_sides("<p>no sides</p>") == "<p>no sides</p>"
