"""Schema text reaches the reference pages only through codegen.naming's Markdown type: whatever
a description holds, it prints as the text it is, in one table cell."""

from __future__ import annotations

import markdown
import pytest

from codegen.naming import Markdown, markdown_code, safe_markdown

HOSTILE = [
    "a | b | c",
    "see `code` and ``double``",
    "*bold* _em_ [link](http://x) ![img](y)",
    "<script>alert(1)</script> &amp;",
    "line one\n\n| --- |\n# heading",
    "trailing {: .attr} and \\| escaped",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_prose_is_one_literal_cell(text: str) -> None:
    table = f"| x | y |\n|---|---|\n| {safe_markdown(text)} | end |\n"
    html = markdown.markdown(table, extensions=["tables", "attr_list"])
    assert html.count("<td>") == 2 and "<td>end</td>" in html
    for tag in ("<a", "<em", "<strong", "<code", "<script", "<img", "<h1"):
        assert tag not in html, (text, html)


def test_a_name_is_a_code_span_unless_it_cannot_be_one() -> None:
    assert markdown_code("VpcId") == "`VpcId`"
    assert markdown_code("a|b") == safe_markdown("a|b")
    assert markdown_code("a`b") == safe_markdown("a`b")
    with pytest.raises(TypeError):
        Markdown("raw")
