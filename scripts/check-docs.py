#!/usr/bin/env python3
"""check-docs.py — what the user docs name must exist in the tree.

    scripts/check-docs.py [TOP]

Reads README.md and docs/*.md (man pages are generated from the same
text) and checks, against the tracked files of TOP (default: this tree):

  files     a path under one of the tree's folders (`runtime/loader.c`,
            [link](../include/perfinst-format.h)) exists; a file named
            in the first column of a table (`pass-split.cc`) exists
            somewhere; every gcc-plugin/ and runtime/ source file and
            every unit test (tests/unit/*.c) is named in the first column
            of a table of docs/design.md, docs/runtime.md or
            docs/testing.md (their file tables)
  plugin    every -fplugin-arg-perfinst-KEY is a key plugin_init knows
  options   every --option of a `pmopt ...` or `perfinst-ld ...` command
            line (in backticks or a code block) is an option of that tool
  env       every PERFINST_NAME is used by some source, test or script
  messages  a message shown in a code block (a line starting "perfinst: ",
            "pmopt: ", "perfinst-ld: ", "cc1: note|warning|error: ") has
            its words in some source: each run of three or more plain
            words between the variable parts (numbers, paths, names,
            quoted values) appears in a source file

Prints one line per problem, "FILE:LINE: what is missing", and exits 1
if there was one.  tests/docs/t-docs.sh runs it in make check.
"""
import os
import re
import subprocess
import sys

TOP = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
FOLDERS = ("gcc-plugin", "runtime", "optimizer", "common", "linker", "include", "tests", "bench",
           "scripts", "examples", "docs", ".ci")
SRC_EXT = (".c", ".cc", ".h", ".sh", ".py", ".mk", ".md")

files = subprocess.run(["git", "-C", TOP, "ls-files"], capture_output=True, text=True,
                       check=True).stdout.split()
files = [f for f in files if os.path.exists(os.path.join(TOP, f))]
fileset = set(files)
dirs = {os.path.dirname(f) for f in files}
for d in list(dirs):
    while d:
        dirs.add(d)
        d = os.path.dirname(d)
basenames = {os.path.basename(f) for f in files}
docs = ["README.md"] + sorted(f for f in files if f.startswith("docs/") and f.endswith(".md"))


def read(path):
    with open(os.path.join(TOP, path), encoding="utf-8", errors="replace") as f:
        return f.read()


def sources(prefixes, exts=(".c", ".cc", ".h")):
    return "\n".join(read(f) for f in files if f.startswith(prefixes) and f.endswith(exts))


# adjacent string literals ("...left "\n "indirect") read as one
code = re.sub(r'"\s*\n\s*"', "", sources(("gcc-plugin/", "runtime/", "optimizer/", "common/",
                                          "linker/", "include/")))
pmopt_src = sources(("optimizer/",))
pild_src = sources(("linker/",))
plugin_src = read("gcc-plugin/perfinst.cc")
not_docs = "\n".join(read(f) for f in files
                     if not f.startswith("docs/") and f != "README.md" and f.endswith(SRC_EXT + (".in", "")))

problems = []


def problem(doc, lineno, what):
    problems.append(f"{doc}:{lineno}: {what}")


# ---- the text of each doc: lines, with whether a line is in a code block
def lines_of(doc):
    fenced = False
    for i, line in enumerate(read(doc).split("\n"), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        yield i, line, fenced


PATH_RE = re.compile(r"(?<![\w./-])(?:\.\./)?((?:%s)/[\w.+-]+(?:/[\w.+-]+)*/?)" % "|".join(re.escape(f) for f in FOLDERS))
PLACEHOLDER = re.compile(r"[A-Z]{3,}|\*|\.\.\.|…|<|>|\{|\}")


def check_path(doc, n, p):
    p = p.rstrip("/.,;:)")
    if PLACEHOLDER.search(p) or p.endswith(("-", "_")) or p.startswith("bench/."):
        return  # a pattern, or scratch space
    if p.endswith((".o", ".a", ".so", ".pit", ".fb", ".png", ".svg", ".json", ".txt")) and p not in fileset:
        return  # outputs a command makes
    # as written; a test named from tests/ ("runtime/t-fork"); a program or
    # module named without its extension ("bench/timeit", "common/pimeta")
    for c in (p, "tests/" + p, "tests/" + p + ".sh", p + ".c", p + ".sh"):
        if c in fileset or c in dirs:
            return
    problem(doc, n, f"no file or folder {p}")


for doc in docs:
    for n, line, fenced in lines_of(doc):
        spans = re.findall(r"`([^`]+)`", line) + re.findall(r"\]\(([^)]+)\)", line)
        for s in spans + ([line] if fenced else []):
            for p in PATH_RE.findall(s):
                check_path(doc, n, p)
        # a table's first column naming a file
        m = re.match(r"\|\s*`([\w.+-]+\.(?:c|cc|h|sh|py))`", line)
        if m and m.group(1) not in basenames:
            problem(doc, n, f"no file named {m.group(1)} in the tree")
        if m:
            for extra in re.findall(r"`([\w.+-]+\.(?:c|cc|h))`", line.split("|")[1]):
                if extra not in basenames:
                    problem(doc, n, f"no file named {extra} in the tree")

# every plugin and runtime source is in its table, every unit test in
# testing.md's: named in the first column of a table row
def first_column(doc):
    names = set()
    for _, line, fenced in lines_of(doc):
        m = re.match(r"\|([^|]*)\|", line)
        if m and not fenced:
            names.update(re.findall(r"`([^`]+)`", m.group(1)))
    return names


tables = {doc: first_column(doc) for doc in ("docs/design.md", "docs/runtime.md", "docs/testing.md")}
for f in files:
    base = os.path.basename(f)
    if f.startswith("gcc-plugin/") and f.endswith((".cc", ".h")):
        if base not in tables["docs/design.md"]:
            problem("docs/design.md", 1, f"{f} is not in the plugin's file table")
    if f.startswith("runtime/") and f.endswith(".c"):
        if base not in tables["docs/runtime.md"]:
            problem("docs/runtime.md", 1, f"{f} is not in the runtime's file table")
    if f.startswith("tests/unit/") and f.endswith(".c") and base != "unit.c":
        if base not in tables["docs/testing.md"]:
            problem("docs/testing.md", 1, f"{f} is not in the unit tests' table")

# ---- plugin arguments
keys = set(re.findall(r'strcmp\(k, "([\w-]+)"\)', plugin_src))
keys |= set(re.findall(r'^\s*\{"([\w-]+)", \{"', plugin_src, re.M))  # the word_args table
for doc in docs:
    for n, line, _ in lines_of(doc):
        for k in re.findall(r"-fplugin-arg-perfinst-([a-z][\w-]*)", line):
            if k not in keys:
                problem(doc, n, f"-fplugin-arg-perfinst-{k}: plugin_init knows no such key")

# ---- options of pmopt and perfinst-ld command lines
def has_option(src, opt):
    return re.search(r'"%s"|"--%s[=" \\,]|--%s\b' % (re.escape(opt), re.escape(opt), re.escape(opt)), src) is not None


CMD_RE = re.compile(r"\b(pmopt|perfinst-ld)\s+([^`|#\n]*)")
for doc in docs:
    for n, line, fenced in lines_of(doc):
        texts = re.findall(r"`([^`]*)`", line) + ([line.split(" #")[0]] if fenced else [])
        for t in texts:
            for tool, rest in CMD_RE.findall(t):
                for opt in re.findall(r"(?<![\w-])--([a-z][a-z0-9-]*)", rest):
                    src = pmopt_src if tool == "pmopt" else pild_src
                    if tool == "perfinst-ld" and not has_option(src, opt):
                        continue  # a gcc/ld option perfinst-ld passes on
                    if not has_option(src, opt):
                        problem(doc, n, f"{tool} --{opt}: no such option in {tool}'s sources")

# ---- environment variables
for doc in docs:
    for n, line, _ in lines_of(doc):
        for v in re.findall(r"\bPERFINST_[A-Z0-9_]*[A-Z0-9]\b", line):
            if v not in not_docs:
                problem(doc, n, f"{v}: used by no source, test or script")

# ---- messages
MSG_RE = re.compile(r"^\s*(?:cc1: (?:note|warning|error): )?(perfinst|pmopt|perfinst-ld): (.*)$")
VARIABLE = re.compile(r"""^(?:[\d.,:%x()\[\]+~-]+|0x[\da-fA-F]+|[\w./-]*[/.][\w./-]*|'[^']*'|"[^"]*"|[A-Z_]{2,}\w*|\w*\d\w*)$""")
for doc in docs:
    for n, line, fenced in lines_of(doc):
        if not fenced:
            continue
        m = MSG_RE.match(line)
        if not m:
            continue
        words, run, runs, foreign = m.group(2).split(), [], [], False
        for w in words + [""]:
            bare = w.strip(",;:()")
            # a capitalised word starts text the tool quotes (strerror's
            # "No such file or directory"), up to the closing parenthesis
            if re.match(r"^\(?[A-Z][a-z]", w):
                foreign = True
            if foreign:
                foreign = not w.endswith(")")
                runs.append(run)
                run = []
                continue
            if w and not VARIABLE.match(bare) and re.match(r"^[a-z][a-z-]*$", bare):
                run.append(bare)
                if w != bare:  # punctuation ends a run
                    runs.append(run)
                    run = []
            else:
                runs.append(run)
                run = []
        for r in runs:
            if len(r) >= 3 and " ".join(r) not in code:
                problem(doc, n, f"message words not in any source: \"{' '.join(r)}\"")

for p in problems:
    print(p)
if problems:
    print(f"check-docs: {len(problems)} problem(s): the docs name what the tree does not have")
    sys.exit(1)
print(f"check-docs: {len(docs)} documents agree with the tree")
