#!/usr/bin/env python3
"""check-html-full.py PAGE — the page `pmopt report --html` wrote for
html-full.c (stack samples and sharing records): well-formed and
self-contained (check-html.py's parser), the flame graph and sharing
sections collected; the flame graph an inline <svg class="pi-flame"> whose
frames name main → run_phase → spin_hot, each holding at most its caller's
samples; the sharing table's first line FALSE sharing of `slots` with
0 true and 1998 false reloads, each thread writing its own element; the
heat map an inline <svg class="pi-heatmap"> naming slots[0] and slots[1]."""
import importlib.util
import os
import re
import sys

spec = importlib.util.spec_from_file_location(
    'check_html', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'check-html.py'))
ch = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ch)
errors = ch.errors


class Full(ch.Page):
    def __init__(self):
        super().__init__()
        self.svgs = []           # (section, class)
        self.titles = []         # (section, svg class, text) of <title> inside an svg
        self.svg_class = None
        self.in_title = False
        self.lines_rows = []     # cells of each row of the first sharing table
        self.in_lines = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'svg':
            self.svg_class = a.get('class')
            self.svgs.append((self.cur_section, self.svg_class))
        if tag == 'title' and self.svg_class:
            self.in_title = True
            self.titles.append([self.cur_section, self.svg_class, ''])
        if tag == 'table' and a.get('id') == 'sharing-lines-0':
            self.in_lines = True
        if self.in_lines and tag == 'tr':
            self.lines_rows.append([])
        if self.in_lines and tag == 'td':
            self.lines_rows[-1].append('')
        super().handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        if tag == 'svg':
            self.svg_class = None
        if tag == 'title':
            self.in_title = False
        if tag == 'table':
            self.in_lines = False
        super().handle_endtag(tag)

    def handle_data(self, d):
        if self.in_title:
            self.titles[-1][2] += d
        if self.in_lines and self.lines_rows and self.lines_rows[-1]:
            self.lines_rows[-1][-1] += d
        super().handle_data(d)


p = Full()
src = ch.read_page(p, sys.argv[1])
if '<?xml' in src:
    errors.append('an XML declaration inside the page (an embedded SVG written as a file)')
want = {'summary': 'collected', 'hot-functions': 'collected', 'hot-lines': 'collected',
        'call-tree': 'not-collected', 'flame-graph': 'collected', 'sharing': 'collected'}
if p.sections != want:
    errors.append(f'sections {p.sections}, want {want}')
if p.first_fn != 'spin_hot':
    errors.append(f'the hottest counted function is {p.first_fn!r}, want spin_hot')
if ('flame-graph', 'pi-flame') not in p.svgs:
    errors.append(f'no <svg class="pi-flame"> in the flame-graph section: {p.svgs}')
if ('sharing', 'pi-heatmap') not in p.svgs:
    errors.append(f'no <svg class="pi-heatmap"> in the sharing section: {p.svgs}')

# the flame graph: "NAME (FILE:LINE): N samples, P%"
frames = {}
for sec, cls, t in p.titles:
    m = re.fullmatch(r'(\S+)(?: \(([^)]*)\))?: ([0-9]+) samples, ([0-9.]+)%', t)
    if sec == 'flame-graph' and cls == 'pi-flame' and m:
        frames[m.group(1)] = (m.group(2), int(m.group(3)), float(m.group(4)))
for name in ('all', 'main', 'run_phase', 'spin_hot'):
    if name not in frames:
        errors.append(f'the flame graph has no frame {name}: {sorted(frames)[:20]}')
hot = frames.get('spin_hot')
if hot and not (hot[0] or '').startswith('html-full.c:'):
    errors.append(f'spin_hot without its source file: {hot}')
# a frame's samples include its callees': spin_hot <= run_phase <= main
# <= all, and spin_hot, which spins for a tenth of a second or more, has
# some (how many is the scheduler's: no share of them is asserted)
chain = [frames.get(n, (None, 0, 0))[1] for n in ('spin_hot', 'run_phase', 'main', 'all')]
if not (0 < chain[0] <= chain[1] <= chain[2] <= chain[3]):
    errors.append(f'samples of spin_hot, run_phase, main, all: {chain}, want 0 < each <= the next')

# the sharing table: #, line, verdict, true, false, cycles, gain, objects, writes
rows = [r for r in p.lines_rows if r]
if not rows:
    errors.append('no row in the sharing lines table')
else:
    r = [c.strip() for c in rows[0]]
    if r[0] != '1' or r[2] != 'FALSE sharing' or r[3] != '0' or r[4] != '1998':
        errors.append(f'first sharing line {r[:5]}, want 1, FALSE sharing, 0 true, 1998 false')
    if not r[7].startswith('slots (global, 16 bytes'):
        errors.append(f'the falsely shared object is {r[7]!r}, want slots (global, 16 bytes ...)')
    writes = sorted(w for w in re.split(r'T[0-9]+: ', r[8]) if w and w != '-')
    if writes != ['slots[0]', 'slots[1]']:
        errors.append(f'writes per thread {r[8]!r}: want slots[0] and slots[1]')
heat = [t for sec, cls, t in p.titles if cls == 'pi-heatmap']
for name in ('slots[0]', 'slots[1]'):
    if not any(re.fullmatch(r'\+[0-9]+ ' + re.escape(name) + ': read and written', t) for t in heat):
        errors.append(f'the heat map names no byte of {name} read and written')
for e in errors:
    print('FAIL:', e)
print(f'{len(p.sections)} sections; flame graph: spin_hot {hot}; '
      f'sharing: {[c.strip() for c in rows[0][:5]] if rows else None} {rows[0][7].strip() if rows else ""}')
sys.exit(1 if errors else 0)
