#!/usr/bin/env python3
"""Reads escaped markup with real parsers and reports, as one JSON object on stdout, what structure
and text they find in it, so that the Swift tests can compare with what went in.

    check_markup.py html FILE       # html5lib (the HTML5 parsing algorithm) and html.parser
    check_markup.py markdown FILE   # cmark-gfm (GitHub's Markdown: tables, autolinks, tagfilter)

html: FILE is a whole document; the report lists, for each parser, every element in document
order as [tag, sorted attribute names], and for every element with a `data-i` attribute its
`title` attribute and its text.
markdown: FILE is Markdown; it is rendered to HTML by cmark-gfm with GitHub's extensions (raw HTML
kept, so that any that gets through shows), then read with html.parser; the report lists every
element as [tag, sorted attribute names], the text of every `code` element in order, and the text
outside `code` elements.

Needs Debian's python3-html5lib and python3-cmarkgfm (scripts/deps installs them).
"""
import json, sys
from html.parser import HTMLParser


class Collector(HTMLParser):
    """html.parser's view: elements, and the text of elements marked `data-i` / inside `code`."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements, self.marked, self.codes, self.outside = [], {}, [], []
        self.stack = []

    def handle_starttag(self, tag, attrs):
        self.elements.append([tag, sorted(name for name, _ in attrs)])
        names = dict(attrs)
        if tag not in ("br", "hr", "img", "meta", "input"):
            self.stack.append((tag, names.get("data-i")))
        if "data-i" in names:
            self.marked[names["data-i"]] = {"title": names.get("title"), "text": ""}
        if tag == "code":
            self.codes.append("")

    def handle_startendtag(self, tag, attrs):
        self.elements.append([tag, sorted(name for name, _ in attrs)])

    def handle_endtag(self, tag):
        for k in range(len(self.stack) - 1, -1, -1):
            if self.stack[k][0] == tag:
                del self.stack[k:]
                break

    def handle_data(self, data):
        for tag, mark in reversed(self.stack):
            if mark is not None:
                self.marked[mark]["text"] += data
                break
        if any(tag == "code" for tag, _ in self.stack):
            self.codes[-1] += data
        else:
            self.outside.append(data)

    def handle_comment(self, data):
        self.elements.append(["#comment", []])

    def handle_decl(self, decl):
        pass


def html(path):
    import html5lib
    text = open(path, encoding="utf-8").read()
    document = html5lib.parse(text, treebuilder="etree", namespaceHTMLElements=False)
    elements, marked = [], {}
    for element in document.iter():
        if not isinstance(element.tag, str):
            elements.append(["#comment", []])
            continue
        elements.append([element.tag, sorted(element.attrib)])
        if "data-i" in element.attrib:
            marked[element.attrib["data-i"]] = {"title": element.attrib.get("title"),
                                                "text": "".join(element.itertext())}
    collector = Collector()
    collector.feed(text)
    collector.close()
    return {"html5lib": {"elements": elements, "marked": marked},
            "html.parser": {"elements": collector.elements, "marked": collector.marked}}


def markdown(path):
    import cmarkgfm
    from cmarkgfm.cmark import Options
    source = open(path, encoding="utf-8").read()
    rendered = cmarkgfm.github_flavored_markdown_to_html(source, options=Options.CMARK_OPT_UNSAFE)
    collector = Collector()
    collector.feed(rendered)
    collector.close()
    return {"elements": collector.elements, "codes": collector.codes, "outside": "".join(collector.outside),
            "html": rendered}


if __name__ == "__main__":
    mode, path = sys.argv[1], sys.argv[2]
    report = html(path) if mode == "html" else markdown(path)
    json.dump(report, sys.stdout, ensure_ascii=True)
