# bench/projects/cmark/gen.py KB SEED MIX — about KB KiB of Markdown,
# deterministic for KB, SEED and MIX:
#   prose   headings (ATX and setext), long paragraphs of inline markup
#           (emphasis, strong, code spans, inline and autolinks, entity and
#           character references, backslash escapes, quotes and dashes for
#           --smart, hard and soft breaks), block quotes, thematic breaks
#   struct  nested bullet and ordered lists (tight and loose, other
#           markers), fenced and indented code blocks, pipe tables
#           (paragraphs to CommonMark), HTML blocks and inline HTML,
#           reference definitions and their uses, images, block quotes of
#           lists, short paragraphs
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus import xorshift, vocabulary  # noqa: E402
kb, seed, mix = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rnd = xorshift(seed)
words = vocabulary(rnd, 3000)
ents = ["&amp;", "&copy;", "&#123;", "&#x2014;", "&nbsp;", "&lt;", "&ouml;", "\\*", "\\_", "\\[", "é", "—"]


def w():
    return words[rnd(3000)]


def phrase(n):
    return " ".join(w() for _ in range(n))


def inline(n):
    """n words with prose inline markup"""
    out = []
    for _ in range(n):
        k = rnd(40)
        if k == 0: out.append("*" + phrase(1 + rnd(3)) + "*")
        elif k == 1: out.append("**" + phrase(1 + rnd(2)) + "**")
        elif k == 2: out.append("`" + w() + "(" + w() + ")`")
        elif k == 3: out.append("[" + phrase(1 + rnd(3)) + "](http://%s.example/%s \"%s\")" % (w(), w(), w()))
        elif k == 4: out.append("<https://%s.example.org/%s>" % (w(), w()))
        elif k == 5: out.append(ents[rnd(len(ents))])
        elif k == 6: out.append("\"" + phrase(1 + rnd(4)) + "\"")
        elif k == 7: out.append(w() + "'s")
        elif k == 8: out.append(["--", "---", "..."][rnd(3)])
        elif k == 9: out.append("_" + w() + "_")
        elif k == 10: out.append("***" + w() + "***")
        else: out.append(w())
    s = " ".join(out)
    return s[0].upper() + s[1:] + "."


def paragraph():
    lines = []
    for _ in range(2 + rnd(6)):
        l = inline(6 + rnd(14))
        if rnd(12) == 0: l += "  "          # hard break
        elif rnd(15) == 0: l += "\\"
        lines.append(l)
    return "\n".join(lines) + "\n\n"


def prose_block():
    k = rnd(20)
    if k == 0: return "#" * (1 + rnd(4)) + " " + phrase(2 + rnd(5)) + " " + "#" * rnd(2) + "\n\n"
    if k == 1: return phrase(2 + rnd(4)) + "\n" + ["====", "----"][rnd(2)] + "\n\n"
    if k == 2: return "".join("> " + l + "\n" for l in paragraph().rstrip("\n").split("\n")) + "\n"
    if k == 3: return ["***", "- - -", "___"][rnd(3)] + "\n\n"
    return paragraph()


def item_text():
    s = phrase(2 + rnd(8))
    k = rnd(8)
    if k == 0: s += " `" + w() + "`"
    elif k == 1: s += " [" + w() + "][" + "r%d" % rnd(40) + "]"
    elif k == 2: s += " <span class=\"%s\">%s</span>" % (w(), w())
    elif k == 3: s += " ![" + w() + "](/img/" + w() + ".png \"" + w() + "\")"
    elif k == 4: s = "[" + ["x", " "][rnd(2)] + "] " + s
    return s


def lst(depth, ind):
    ordered = rnd(2)
    mark = ["-", "*", "+"][rnd(3)]
    start = 1 + rnd(3)
    loose = rnd(4) == 0
    s = ""
    for i in range(2 + rnd(6)):
        m = ("%d%s " % (start + i, [".", ")"][rnd(2)] if i == 0 else ".")) if ordered else mark + " "
        s += ind + m + item_text() + "\n"
        sub = ind + " " * len(m)
        if rnd(6) == 0: s += sub + phrase(3 + rnd(6)) + "\n"   # lazy continuation
        if loose: s += "\n"
        if depth < 3 and rnd(4) == 0:
            if loose or rnd(2): s += "\n"
            s += lst(depth + 1, sub)
        if depth < 2 and rnd(12) == 0:
            s += "\n" + sub + "```" + ["c", "py", ""][rnd(3)] + "\n" + sub + w() + " = " + w() + "(1);\n" + sub + "```\n\n"
    return s


def code():
    if rnd(3) == 0:
        return "".join("    " + w() + "(" + ", ".join(w() for _ in range(rnd(4))) + ");\n" for _ in range(2 + rnd(8))) + "\n"
    fence = ["```", "~~~", "````"][rnd(3)]
    info = ["", "c", "python", "sh", "json {.numberLines}"][rnd(5)]
    body = ""
    for _ in range(3 + rnd(15)):
        body += " " * (4 * rnd(3)) + "%s %s = %s(%d) < %d && %s;\n" % (w(), w(), w(), rnd(100), rnd(100), w())
    return fence + info + "\n" + body + fence + "\n\n"


def table():
    cols = 2 + rnd(4)
    s = "| " + " | ".join(w() for _ in range(cols)) + " |\n"
    s += "|" + "|".join(["---", ":--", "--:", ":-:"][rnd(4)] for _ in range(cols)) + "|\n"
    for _ in range(2 + rnd(10)):
        s += "| " + " | ".join(["`%s`" % w(), "**%d**" % rnd(1000), w(), str(rnd(100000))][rnd(4)] for _ in range(cols)) + " |\n"
    return s + "\n"


def struct_block():
    k = rnd(14)
    if k < 5: return lst(0, "") + "\n"
    if k < 8: return code()
    if k < 10: return table()
    if k == 10: return "<div class=\"%s\">\n<p>%s</p>\n</div>\n\n" % (w(), phrase(4)) if rnd(2) else "<!-- " + phrase(5) + " -->\n\n"
    if k == 11: return "".join("[r%d]: /%s/%s \"%s\"\n" % (rnd(40), w(), w(), w()) for _ in range(1 + rnd(4))) + "\n"
    if k == 12: return "".join("> " + l + "\n" for l in lst(1, "").rstrip("\n").split("\n")) + "\n"
    return "## " + phrase(1 + rnd(3)) + "\n\n" + item_text() + "\n\n"


block = {"prose": prose_block, "struct": struct_block}[mix]
out, n = sys.stdout, 0
out.write("<!-- generated: %d KiB, seed %d, %s -->\n\n" % (kb, seed, mix))
while n < kb * 1024:
    s = block()
    out.write(s)
    n += len(s.encode())
