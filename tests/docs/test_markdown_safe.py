"""Schema text reaches the reference pages only through codegen.naming's Markdown type: whatever
a description holds, it prints as the text it is, in one table cell."""

from __future__ import annotations

import markdown
import pytest

from codegen.naming import Markdown, markdown_code, markdown_from_rst, safe_markdown

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


@pytest.mark.parametrize("text", HOSTILE)
def test_documentation_is_one_cell_whatever_its_markup(text: str) -> None:
    table = f"| x | y |\n|---|---|\n| {markdown_from_rst(text)} | end |\n"
    html = markdown.markdown(table, extensions=["tables", "attr_list"])
    assert html.count("<td>") == 2 and "<td>end</td>" in html
    for tag in ("<a", "<script", "<img", "<h1"):
        assert tag not in html, (text, html)


def test_botocore_markup_becomes_markdown() -> None:
    text = "For example, ``10.0.0.0/16``. See `What is IPAM? <https://docs.aws.amazon.com/x.html>`__ in the *Guide*; 2*3*4."
    html = markdown.markdown(str(markdown_from_rst(text)))
    assert "<code>10.0.0.0/16</code>" in html and '<a href="https://docs.aws.amazon.com/x.html">What is IPAM?</a>' in html
    assert "<em>Guide</em>" in html and "2*3*4" in html
    assert "<a" not in markdown.markdown(str(markdown_from_rst("`x <javascript:alert(1)>`__")))
