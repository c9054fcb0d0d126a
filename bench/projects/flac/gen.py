# bench/projects/flac/gen.py KB SEED KIND BITS CHANNELS RATE — a WAV file
# (WAVE_FORMAT_EXTENSIBLE, a 68-byte header, PCM
# little-endian) of about KB KiB of samples
# on stdout, deterministic for its arguments.  KIND:
#   speech  voiced syllables (a harmonic series at a gliding pitch with
#           formant weights, an envelope per syllable), unvoiced noise
#           bursts and pauses with a little background noise
#   music   chords of decaying notes (a few partials each) over a soft
#           noise floor, a new chord every 0.2 to 0.8 s
# The channels differ (a delay and a gain: stereo decorrelation has work)
import math, os, struct, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus import xorshift  # noqa: E402

kb, seed, kind = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
bits, ch, rate = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
rnd = xorshift(seed)
width = bits // 8
frames = kb * 1024 // (width * ch)
full = (1 << (bits - 1)) - 1
TAB = 2048


def table(weights):
    """one period of a waveform with these harmonic weights, peak 1"""
    t = [sum(w * math.sin(2 * math.pi * (h + 1) * i / TAB) for h, w in enumerate(weights)) for i in range(TAB)]
    m = max(abs(v) for v in t) or 1.0
    return [v / m for v in t]


def noise(a):
    return (rnd(2001) - 1000) / 1000.0 * a


def speech():
    vowels = [table([1.0 / (h + 1) * (1.5 if h in f else 0.4) for h in range(24)])
              for f in ((2, 3, 8), (1, 9, 10), (3, 4, 11), (0, 5, 6), (2, 7, 12))]
    out, n = [], 0
    while n < frames:
        r = rnd(10)
        length = int(rate * (0.08 + rnd(250) / 1000.0))
        if r < 2:           # a pause
            out.extend(noise(0.002) for _ in range(length))
        elif r < 4:         # an unvoiced burst
            a, prev = 0.05 + rnd(100) / 1000.0, 0.0
            for i in range(length):
                prev = 0.6 * prev + noise(a)
                out.append(prev * math.sin(math.pi * i / length))
        else:               # a voiced syllable
            t = vowels[rnd(len(vowels))]
            f0, f1 = 90 + rnd(160), 90 + rnd(160)
            a, ph = 0.2 + rnd(600) / 1000.0, 0.0
            for i in range(length):
                ph = (ph + (f0 + (f1 - f0) * i / length) * TAB / rate) % TAB
                out.append(a * t[int(ph)] * math.sin(math.pi * i / length) + noise(0.003))
        n += length
    return out[:frames]


def music():
    partials = table([1.0, 0.5, 0.3, 0.2, 0.12, 0.08, 0.05])
    out, n = [], 0
    while n < frames:
        length = int(rate * (0.2 + rnd(600) / 1000.0))
        notes = [(220.0 * 2 ** ((rnd(36) - 12) / 12.0), 0.1 + rnd(200) / 1000.0) for _ in range(2 + rnd(3))]
        decay = math.exp(-1.0 / (rate * (0.1 + rnd(500) / 1000.0)))
        phases = [0.0] * len(notes)
        env = 1.0
        for i in range(length):
            s = 0.0
            for k, (f, a) in enumerate(notes):
                phases[k] = (phases[k] + f * TAB / rate) % TAB
                s += a * partials[int(phases[k])]
            out.append(s * env + noise(0.001))
            env *= decay
        n += length
    return out[:frames]


x = speech() if kind == "speech" else music()
pack = {1: lambda v: struct.pack("<B", v + 128), 2: lambda v: struct.pack("<h", v),
        3: lambda v: struct.pack("<i", v)[:3], 4: lambda v: struct.pack("<i", v)}[width]
data = bytearray()
for i in range(frames):
    for c in range(ch):
        v = x[i - 7 * c] * (1.0 - 0.15 * c) if i >= 7 * c else 0.0
        v = max(-1.0, min(1.0, v))
        data += pack(int(round(v * full * 0.9)))
# WAVE_FORMAT_EXTENSIBLE (what flac expects above 16 bits): a 68-byte header
mask = {1: 0x4, 2: 0x3}.get(ch, (1 << ch) - 1)
fmt = struct.pack("<HHIIHHHHI", 0xfffe, ch, rate, rate * ch * width, ch * width, bits, 22, bits, mask) + \
    bytes.fromhex("0100000000001000800000aa00389b71")
hdr = b"RIFF" + struct.pack("<I", 4 + 8 + len(fmt) + 8 + len(data)) + b"WAVEfmt " + struct.pack("<I", len(fmt)) + fmt + \
    b"data" + struct.pack("<I", len(data))
sys.stdout.buffer.write(hdr + bytes(data))
