// check-pprof.js PROFILE.pb.gz — decode a gzip'ed pprof profile with the
// npm registry's pprof-format package (an independent decoder: not ours,
// not Go's) and print what it holds as JSON for the test to assert on:
//   sample_types [[type, unit]...], default_sample_type, period_type, period,
//   mappings [{id, start, limit, offset, file, build_id}],
//   functions [{name, system_name, file, start_line}],
//   flat {type: {function: value}}          (the leaf frame's function)
//   lines {type: {"function file:line": value}}  (the leaf frame's line)
//   stacks {type: {"root;...;leaf": value}}  (function names, root first)
//   arcs {type: {"caller file:line -> callee": value}}  (the two innermost frames)
//   errors [...]: references that do not resolve (a location's mapping or
//   function, a sample's location), an address outside its mapping.
// NODE_PATH must find pprof-format.
const fs = require('fs');
const zlib = require('zlib');
const { Profile } = require('pprof-format');

const raw = fs.readFileSync(process.argv[2]);
const p = Profile.decode(zlib.gunzipSync(raw));
const S = (i) => p.stringTable.strings[Number(i)];
const errors = [];
const out = {
    sample_types: p.sampleType.map((t) => [S(t.type), S(t.unit)]),
    default_sample_type: S(p.defaultSampleType),
    period_type: p.periodType ? [S(p.periodType.type), S(p.periodType.unit)] : null,
    period: Number(p.period),
    mappings: p.mapping.map((m) => ({
        id: Number(m.id), start: Number(m.memoryStart), limit: Number(m.memoryLimit),
        offset: Number(m.fileOffset), file: S(m.filename), build_id: S(m.buildId),
    })),
    functions: p.function.map((f) => ({
        name: S(f.name), system_name: S(f.systemName), file: S(f.filename),
        start_line: Number(f.startLine),
    })),
    flat: {}, lines: {}, stacks: {}, arcs: {}, errors,
};
const maps = new Map(p.mapping.map((m) => [Number(m.id), m]));
const funcs = new Map(p.function.map((f) => [Number(f.id), f]));
const locs = new Map(p.location.map((l) => [Number(l.id), l]));
for (const l of p.location) {
    const m = Number(l.mappingId);
    if (m && !maps.has(m)) errors.push(`location ${l.id}: no mapping ${m}`);
    const mm = maps.get(m);
    const a = Number(l.address);
    if (mm && a && Number(mm.memoryLimit) && (a < Number(mm.memoryStart) || a >= Number(mm.memoryLimit)))
        errors.push(`location ${l.id}: address 0x${a.toString(16)} outside its mapping ${S(mm.filename)}`);
    for (const ln of l.line)
        if (!funcs.has(Number(ln.functionId))) errors.push(`location ${l.id}: no function ${ln.functionId}`);
}
const fname = (l) => (l.line.length ? S(funcs.get(Number(l.line[0].functionId)).name) : '?');
const fline = (l) => (l.line.length
    ? `${fname(l)} ${S(funcs.get(Number(l.line[0].functionId)).filename)}:${Number(l.line[0].line)}` : '?');
for (const s of p.sample) {
    const ls = s.locationId.map((id) => locs.get(Number(id)));
    if (ls.some((l) => !l)) { errors.push('a sample with an unknown location'); continue; }
    const leaf = ls[0];
    const stack = ls.map(fname).reverse().join(';');
    const line = fline(leaf);
    const arc = ls.length > 1 ? `${fline(ls[1])} -> ${fname(leaf)}` : null;
    s.value.forEach((v, i) => {
        v = Number(v);
        if (!v) return;
        const t = out.sample_types[i][0];
        for (const [k, key] of [['flat', fname(leaf)], ['lines', line], ['stacks', stack], ['arcs', arc]]) {
            if (key === null) continue;
            out[k][t] = out[k][t] || {};
            out[k][t][key] = (out[k][t][key] || 0) + v;
        }
    });
}
console.log(JSON.stringify(out, null, 1));
