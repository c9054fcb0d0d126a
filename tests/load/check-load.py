#!/usr/bin/env python3
"""check-load.py PMOPT PROG NRUNS TRACE... — the traces of t-load.sh's runs.

Every trace must be complete and valid (pitdump.py), no two traces may come
from the same process image (pid, start time), and each trace's counts must
be exactly what its role (the number of role() calls, see load.c) did:
  threads = 64 (role 1), 8 (roles 2, 4, 5); role 3 counted only its role()
  calls before exec; role 0: the fork child that exec'd with mode off (zero)
  and the mode-off image (flag mode_off, zero, no handler ran).
offable() is off through the overlay: it counts 0 everywhere."""
import json, re, subprocess, sys
from collections import Counter

ITERS = 3000
pmopt, prog, nruns, traces = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
pitdump = __file__.replace('load/check-load.py', 'runtime/pitdump.py')
errors = []
images = set()
roles = Counter()
for t in traces:
    d = subprocess.run([sys.executable, pitdump, t], capture_output=True, text=True)
    if d.returncode:
        errors.append(f'{t}: not a complete, valid trace: {d.stdout[-300:]}{d.stderr[-300:]}')
        continue
    h = re.search(r'^header .*mode_off=(\d) pid=(\d+) .*start_ns=(\d+)', d.stdout, re.M)
    key = (h.group(2), h.group(3))
    if key in images:
        errors.append(f'{t}: a second trace of pid {key[0]} started at {key[1]}')
    images.add(key)
    signal = re.search(r'^signal signo=(\d+)', d.stdout, re.M)
    r = subprocess.run([pmopt, 'report', '--format=json', prog, t], capture_output=True, text=True)
    if r.returncode:
        errors.append(f'{t}: pmopt report failed: {r.stderr}')
        continue
    rep = json.loads(r.stdout)
    fn = {f['function']: f['entries'] for f in rep['functions']}
    ind = {i['kind']: i['hits'] for i in rep.get('indicators', [])}
    role = fn['role']
    mode_off = h.group(1) == '1'
    roles['off' if mode_off else role] += 1
    threads = {1: 64, 2: 8, 4: 8, 5: 8}.get(role, 0)
    n = threads * ITERS
    want = {'work': n, 'trapped': n, 'thr': n, 'slow': n, 'offable': 0, 'inner': n // 100,
            'body': threads}
    for f, w in want.items():
        if fn[f] != w:
            errors.append(f'{t} (role {role}): {f} entered {fn[f]} times, want {w}')
    for k, w in (('trap', n), ('threshold', n // 100), ('trace', threads)):
        if ind.get(k, 0) != w:
            errors.append(f'{t} (role {role}): {k} hits {ind.get(k, 0)}, want {w}')
    if (role == 5) != bool(signal and signal.group(1) == '15'):
        errors.append(f'{t} (role {role}): SIGNAL record {signal and signal.group(0)}')
want_roles = Counter({1: nruns, 2: nruns, 3: nruns, 4: nruns, 5: nruns, 0: nruns, 'off': nruns})
if nruns and roles != want_roles:  # NRUNS 0: `load threads` runs, role 1 alone
    errors.append(f'traces per role {dict(roles)}, want {dict(want_roles)}')
for e in errors:
    print('FAIL:', e)
print(f'{len(traces)} traces checked, {len(errors)} problems')
sys.exit(1 if errors else 0)
