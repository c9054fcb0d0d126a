#!/usr/bin/env python3
"""bench/projects/ninja/gen.py MIX EDGES DIR — a generated Ninja manifest
for bench/projects/ninja.sh's workloads, written into DIR (build.ninja and
the files it includes); deterministic for a MIX and EDGES.

train (seed 1): a C project as CMake's or meson's generators write it —
  compile edges with depfiles and `deps = gcc`, headers as implicit inputs,
  per-directory static libraries, programs linked from them, phony
  aliases, one file.
test (seed 7): a project of generated code — code generators with
  `generator`, `restat` and implicit outputs, order-only dependencies on
  them, a pool, per-edge variables with nested expansions, `include` and
  `subninja` files with scoped variables, paths that need canonicalising
  (`./`, `..`, doubled slashes), escaped spaces and colons, `default`
  statements.
Every source the manifests name is made, empty, so that a dry run finds
it, and every output's directory, which ninja makes before it runs (or
dry-runs) an edge: the first run in a fresh tree then runs as every later
one (it had made the directories and counted otherwise, so a training
build kept from an earlier run planned another order)."""
import os
import random
import sys


def train(r, n, out, dirs):
    w = out["build.ninja"]
    w.append("ninja_required_version = 1.5\ncflags = -O2 -Wall\nldflags = -Wl,-O1\n")
    w.append("rule cc\n  command = gcc -MMD -MF $out.d $cflags -c $in -o $out\n"
             "  depfile = $out.d\n  deps = gcc\n  description = CC $out\n")
    w.append("rule ar\n  command = rm -f $out && ar crs $out $in\n  description = AR $out\n")
    w.append("rule link\n  command = gcc $ldflags -o $out $in $libs\n  description = LINK $out\n")
    ndirs = max(4, n // 200)
    headers = ["include/h%d.h" % i for i in range(max(8, n // 50))]
    for h in headers:
        out[h] = []
    objs = {d: [] for d in range(ndirs)}
    for i in range(n):
        d = r.randrange(ndirs)
        o = "obj/d%d/f%d.o" % (d, i)
        hs = " ".join(r.sample(headers, 3))
        w.append("build %s: cc src/d%d/f%d.c | %s\n" % (o, d, i, hs))
        out["src/d%d/f%d.c" % (d, i)] = []
        if r.random() < 0.3:
            w.append("  cflags = $cflags -DUNIT=%d\n" % i)
        objs[d].append(o)
        dirs.add("obj/d%d" % d)
    dirs.update(("obj", "lib", "bin"))
    libs = []
    for d in range(ndirs):
        if objs[d]:
            lib = "lib/libd%d.a" % d
            w.append("build %s: ar %s\n" % (lib, " ".join(objs[d])))
            libs.append(lib)
    progs = []
    for p in range(max(2, n // 500)):
        prog = "bin/p%d" % p
        w.append("build obj/main%d.o: cc src/main%d.c\n" % (p, p))
        out["src/main%d.c" % p] = []
        w.append("build %s: link obj/main%d.o %s\n  libs = -lm\n" % (prog, p, " ".join(r.sample(libs, min(len(libs), 5)))))
        progs.append(prog)
    w.append("build all: phony %s\ndefault all\n" % " ".join(progs))


def test(r, n, out, dirs):
    w = out["build.ninja"]
    out["tools/gen.py"] = []
    w.append("builddir = out\ngen = python3 tools/gen.py\npool heavy\n  depth = 2\n")
    w.append("rule gen\n  command = $gen --in $in --out $out $genflags\n  generator = 1\n"
             "  restat = 1\n  description = GEN ${out}\n")
    w.append("rule cxx\n  command = g++ $cxxflags ${defines} -c $in -o $out\n"
             "  description = CXX $out\n")
    w.append("rule ld\n  command = g++ -o $out @$out.rsp\n  rspfile = $out.rsp\n"
             "  rspfile_content = $in_newline\n  pool = heavy\n  description = LD $out\n")
    w.append("rule stamp\n  command = touch $out\n")
    nsub = max(3, n // 400)
    dirs.add("out")
    for s in range(nsub):
        dirs.add("out/sub%d" % s)
        w.append("subninja sub%d/build.ninja\n" % s)
        out["sub%d/build.ninja" % s] = sub = []
        sub.append("cxxflags = -O2 -std=c++17 -Isub%d\ndefines = -DSUB=%d\n" % (s, s))
        sub.append("include sub%d/vars.ninja\n" % s)
        out["sub%d/vars.ninja" % s] = ["defines = $defines -DLEVEL=%d\n" % r.randrange(4)]
        m = n // nsub
        gens = []
        for g in range(max(1, m // 20)):
            base = "$builddir/sub%d/gen%d" % (s, g)
            sub.append("build %s.cc | %s.h: gen ./sub%d//proto/p%d.proto$ v%d | tools/gen.py\n"
                       "  genflags = --ns=s%d_g%d\n" % (base, base, s, g, g % 3, s, g))
            gens.append(base)
            out["sub%d/proto/p%d.proto v%d" % (s, g, g % 3)] = []
        objs = []
        for i in range(m):
            o = "$builddir/sub%d/o%d.o" % (s, i)
            src = "sub%d/src/../src/x%d.cc" % (s, i) if i % 5 == 0 else "sub%d/src/x%d.cc" % (s, i)
            oo = " ".join(g + ".h" for g in r.sample(gens, min(2, len(gens))))
            sub.append("build %s: cxx %s || %s\n" % (o, src, oo))
            out["sub%d/src/x%d.cc" % (s, i)] = []
            if r.random() < 0.5:
                sub.append("  defines = ${defines} -DOBJ_%d -DNAME=x%d_$:%d\n" % (i, i, r.randrange(99)))
            objs.append(o)
        for g in gens:
            sub.append("build %s.o: cxx %s.cc\n" % (g, g))
            objs.append(g + ".o")
        sub.append("build $builddir/sub%d/lib.so: ld %s\n" % (s, " ".join(objs)))
        sub.append("build sub%d: phony $builddir/sub%d/lib.so\n" % (s, s))
    w.append("build out/stamp: stamp %s\n" % " ".join("sub%d" % s for s in range(nsub)))
    w.append("default out/stamp\n")


def main():
    mix, n, d = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    r = random.Random({"train": 1, "test": 7}[mix])
    out = {"build.ninja": []}
    dirs = set()
    {"train": train, "test": test}[mix](r, n, out, dirs)
    for name in sorted(dirs):
        os.makedirs(os.path.join(d, name), exist_ok=True)
    for name, parts in out.items():
        p = os.path.join(d, name)
        os.makedirs(os.path.dirname(p) or ".", exist_ok=True)
        with open(p, "w") as f:
            f.write("".join(parts))


main()
