# bench/projects/pugixml/gen.py KB SEED — about KB KiB of XML: a catalog of
# sections of items (attributes of numbers and words, nested elements, text
# with entity and character references, comments, CDATA, processing
# instructions), deterministic for KB and SEED
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus import xorshift, vocabulary  # noqa: E402
kb = int(sys.argv[1])
rnd = xorshift(int(sys.argv[2]))
words = vocabulary(rnd, 800)
cats = words[:12]
refs = ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#233;", "&#x4e2d;", "é", "ß"]
def text(n):
    t = " ".join(words[rnd(800)] for _ in range(n))
    if rnd(4) == 0:
        i = rnd(len(t) + 1)
        t = t[:i] + refs[rnd(len(refs))] + t[i:]
    return t
def item(i, ind):
    p = ind + "  "
    a = ' id="%d" price="%d.%02d" qty="%d" cat="%s"' % (i, rnd(500), rnd(100), rnd(50), cats[rnd(12)])
    if rnd(3) == 0: a += ' flag="%s"' % ["true", "false", "yes", "0"][rnd(4)]
    s = ind + "<item" + a + ">\n"
    s += p + "<name>" + text(1 + rnd(3)) + "</name>\n"
    if rnd(2): s += p + "<desc lang=\"%s\">" % ["en", "de", "fr"][rnd(3)] + text(3 + rnd(20)) + "</desc>\n"
    if rnd(3) == 0: s += p + "<!-- " + text(2 + rnd(5)).replace("&", "and") + " -->\n"
    if rnd(5) == 0: s += p + "<code><![CDATA[if (a < b && c > d) { " + text(2) + "; }]]></code>\n"
    if rnd(8) == 0: s += p + "<?render mode=\"%s\"?>\n" % words[rnd(800)]
    if rnd(2):
        s += p + "<tags>"
        for _ in range(1 + rnd(5)): s += "<tag w=\"%d\">%s</tag>" % (rnd(10), words[rnd(800)])
        s += "</tags>\n"
    if rnd(4) == 0:
        s += p + "<parts>\n"
        for j in range(1 + rnd(4)):
            s += p + "  <part n=\"%d\" weight=\"%d\"><label>%s</label></part>\n" % (j, rnd(1000), text(1 + rnd(2)))
        s += p + "</parts>\n"
    s += ind + "</item>\n"
    return s
out, n, i, sec = sys.stdout, 0, 0, 0
out.write('<?xml version="1.0" encoding="UTF-8"?>\n<!-- generated: %d KiB, seed %s -->\n<catalog version="2">\n' % (kb, sys.argv[2]))
while n < kb * 1024:
    s = '  <section name="%s" n="%d">\n' % (words[rnd(800)], sec)
    for _ in range(5 + rnd(40)):
        s += item(i, "    ")
        i += 1
    s += "  </section>\n"
    sec += 1
    out.write(s)
    n += len(s.encode())
out.write("</catalog>\n")
