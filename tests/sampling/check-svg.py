#!/usr/bin/env python3
"""check-svg.py SVG NAME...: the flame graph is well-formed XML (SVG 1.1),
every <g> has a <title> and a <rect>, and each NAME has a frame whose title
names it.  Prints the widest frame of each NAME."""
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
tree = ET.parse(sys.argv[1])  # raises on malformed XML
root = tree.getroot()
assert root.tag == NS + "svg", root.tag
frames = []
for g in root.iter(NS + "g"):
    title = g.find(NS + "title")
    rect = g.find(NS + "rect")
    assert title is not None and rect is not None, "a frame without title or rect"
    frames.append((title.text, float(rect.get("width"))))
assert frames, "no frames"
for name in sys.argv[2:]:
    hits = [f for f in frames if f[0].split(" ")[0].split(":")[0] == name]
    assert hits, "no frame titled %s" % name
    best = max(hits, key=lambda f: f[1])
    print("%s: %s (width %.1f)" % (name, best[0], best[1]))
