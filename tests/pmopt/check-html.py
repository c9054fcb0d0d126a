#!/usr/bin/env python3
"""check-html.py PAGE — the page `pmopt report --html` wrote for html.c:
well-formed (every element closed in order), self-contained (nothing that
would load another file or go to the network), every section present with
the status it should have, hot_kernel first among the hot functions, and
the call tree leaf ← middle ← outer.  (check-html-full.py reuses its
parser.)"""
import sys
from html.parser import HTMLParser

VOID = {'meta', 'br', 'hr', 'img', 'input', 'link', 'wbr', 'col', 'area', 'base', 'source'}
SVG_EMPTY = {'rect', 'path', 'line', 'circle', 'polyline', 'polygon'}
FETCHING = {'src', 'href', 'srcset', 'action', 'data', 'poster', 'formaction', 'background'}
errors = []


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.sections, self.text = [], {}, {}
        self.cur_section = None
        self.first_fn = None
        self.in_functions = self.row = self.cell = 0
        self.tree = []          # (depth, text) of each <summary> in call-tree

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k, v in attrs:
            if k in FETCHING or (k == 'style' and v and ('url(' in v or '@import' in v)):
                errors.append(f'line {self.getpos()[0]}: <{tag} {k}="{v}"> may fetch something')
        if tag in ('link', 'iframe', 'object', 'embed', 'img'):
            errors.append(f'line {self.getpos()[0]}: <{tag}> in a self-contained page')
        if tag == 'section':
            self.cur_section = a.get('id')
            self.sections[a.get('id')] = a.get('data-status')
        if tag == 'table' and a.get('id') == 'functions':
            self.in_functions = 1
        if self.in_functions and tag == 'tr':
            self.row += 1
            self.cell = 0
        if self.in_functions and tag == 'td':
            self.cell += 1
        if tag == 'summary' and self.cur_section == 'call-tree':
            self.tree.append([sum(1 for t in self.stack if t == 'details') - 1, ''])
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            errors.append(f'line {self.getpos()[0]}: </{tag}> closes <{self.stack[-1] if self.stack else "nothing"}>')
            return
        self.stack.pop()
        if tag == 'table':
            self.in_functions = 0

    def handle_data(self, d):
        if self.cur_section:
            self.text[self.cur_section] = self.text.get(self.cur_section, '') + d
        if self.in_functions and self.row == 2 and self.cell == 4 and self.first_fn is None:
            self.first_fn = d.strip()
        if self.stack and 'summary' in self.stack and self.tree and self.cur_section == 'call-tree':
            self.tree[-1][1] += d


def read_page(p, path):
    """Feed the page at path to parser p; the checks every page gets (tags
    closed, a doctype).  Its text."""
    src = open(path, encoding='utf-8').read()
    p.feed(src)
    p.close()
    if p.stack:
        errors.append(f'unclosed at the end: {p.stack}')
    if not src.startswith('<!DOCTYPE html>'):
        errors.append('no <!DOCTYPE html>')
    return src


if __name__ == '__main__':  # check-html-full.py imports Page, read_page and errors
    p = Page()
    src = read_page(p, sys.argv[1])
    want = {'summary': 'collected', 'hot-functions': 'collected', 'hot-lines': 'collected',
            'call-tree': 'collected', 'flame-graph': 'not-collected', 'sharing': 'not-collected'}
    if p.sections != want:
        errors.append(f'sections {p.sections}, want {want}')
    for s in ('flame-graph', 'sharing'):
        if 'not collected' not in p.text.get(s, ''):
            errors.append(f'section {s} does not say "not collected"')
    if p.first_fn != 'hot_kernel':
        errors.append(f'the hottest function is {p.first_fn!r}, want hot_kernel')
    if 'h&t.c' not in p.text.get('hot-functions', ''):
        errors.append('the source file name h&t.c (escaped as h&amp;t.c) is not in the table')
    if 's += i * i;' not in p.text.get('hot-lines', ''):
        errors.append('the hot line\'s source text is not shown')
    tree = [(d, t.split()[0]) for d, t in p.tree]
    if tree[:3] != [(0, 'leaf'), (1, 'middle'), (2, 'outer')]:
        errors.append(f'call tree {tree}, want leaf > middle > outer first')
    if not p.tree or '3 events' not in p.tree[0][1]:
        errors.append(f'call tree root {p.tree[:1]!r}: want 3 events')
    for e in errors:
        print('FAIL:', e)
    print(f'{len(p.sections)} sections, hottest {p.first_fn}, call tree {tree[:4]}')
    sys.exit(1 if errors else 0)
