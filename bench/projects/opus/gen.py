#!/usr/bin/env python3
# bench/projects/opus/gen.py KIND RATE CHANNELS SECONDS SEED — raw 16-bit
# little-endian PCM on stdout for bench/projects/opus.sh, deterministic
# (random.Random(SEED), no time, no hash order):
#   speech  a voiced/unvoiced syllable stream: a glottal pulse train at a
#           gliding pitch through two formant resonators, noise bursts
#           (fricatives), pauses with faint noise
#   music   notes of a scale in three voices (harmonics, an envelope each),
#           panned across the channels, a noise hit on each beat
# each normalised to a peak of 16000
import math
import random
import struct
import sys

kind, rate, ch, secs, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
rnd = random.Random(seed)
n = int(rate * secs)
TAB = 4096
sint = [math.sin(2 * math.pi * i / TAB) for i in range(TAB)]


def reson(f, bw):
    r = math.exp(-math.pi * bw / rate)
    return 2 * r * math.cos(2 * math.pi * f / rate), -r * r


def speech():
    out = []
    while len(out) < n:
        kind_ = rnd.random()
        dur = int(rate * rnd.uniform(0.08, 0.25))
        if kind_ < 0.15:                      # pause
            out.extend(rnd.gauss(0, 30) for _ in range(int(rate * rnd.uniform(0.1, 0.4))))
            continue
        if kind_ < 0.35:                      # fricative
            a1, a2 = reson(rnd.uniform(2500, min(6000, rate * 0.45)), 800)
            y1 = y2 = 0.0
            amp = rnd.uniform(300, 1500)
            for i in range(dur):
                env = math.sin(math.pi * i / dur)
                y = rnd.gauss(0, 1) + a1 * y1 + a2 * y2
                y2, y1 = y1, y
                out.append(amp * 0.05 * env * y)
            continue
        f0a, f0b = rnd.uniform(90, 220), rnd.uniform(90, 220)
        f1a, f1b = reson(rnd.uniform(300, 900), 90)
        f2a, f2b = reson(rnd.uniform(900, 2500), 120)
        amp = rnd.uniform(1500, 6000)
        ph = 0.0
        u1 = u2 = v1 = v2 = 0.0
        for i in range(dur):
            f0 = f0a + (f0b - f0a) * i / dur
            ph += f0 / rate
            x = 1.0 if ph >= 1.0 else 0.0
            if ph >= 1.0:
                ph -= 1.0
            x += rnd.gauss(0, 0.02)
            u = x + f1a * u1 + f1b * u2
            u2, u1 = u1, u
            v = u + f2a * v1 + f2b * v2
            v2, v1 = v1, v
            env = min(1.0, i / (0.02 * rate), (dur - i) / (0.02 * rate))
            out.append(amp * 0.01 * env * (0.6 * u + 0.4 * v))
    return [(s,) * ch for s in out[:n]]


def music():
    scale = [0, 2, 4, 5, 7, 9, 11]
    beat = int(rate * 60 / rnd.choice([96, 110, 128]))
    frames = [[0.0] * ch for _ in range(n)]
    for voice in range(3):
        base = 110 * 2 ** voice
        t = 0
        while t < n:
            dur = beat * rnd.choice([1, 1, 2, 4]) // (1 + (voice == 2))
            note = scale[rnd.randrange(7)] + 12 * rnd.randrange(2)
            f = base * 2 ** (note / 12)
            harm = [(k, rnd.uniform(0.2, 1.0) / k) for k in range(1, 7) if f * k < rate * 0.45]
            pan = rnd.random()
            gains = [1 - pan, pan] if ch == 2 else [1.0]
            amp = rnd.uniform(1500, 3500)
            step = f * TAB / rate
            for i in range(min(dur, n - t)):
                env = math.exp(-3.0 * i / dur) * min(1.0, i / (0.005 * rate))
                p = step * i
                s = 0.0
                for k, a in harm:
                    s += a * sint[int(p * k) % TAB]
                s *= amp * env
                fr = frames[t + i]
                for c in range(ch):
                    fr[c] += gains[c] * s
            t += dur
    for t in range(0, n, beat):                 # a hit on each beat
        for i in range(min(int(0.03 * rate), n - t)):
            s = rnd.gauss(0, 2500) * math.exp(-i / (0.005 * rate))
            for c in range(ch):
                frames[t + i][c] += s
    return frames


frames = speech() if kind == "speech" else music()
peak = max(max(abs(s) for s in fr) for fr in frames) or 1.0
g = 16000.0 / peak                              # normalised: a 16000 peak
out = bytearray()
for fr in frames:
    for s in fr:
        out += struct.pack("<h", max(-32768, min(32767, int(s * g))))
sys.stdout.buffer.write(out)
