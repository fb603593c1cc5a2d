#!/usr/bin/env python3
"""Prints, from one sweep's JSON, the two tables docs/performance.md gives each run on the GPU
machine: the fast and display entries side by side with cuFFT, VkFFT and two copies, and issue
6's targets met or not, each miss with its ratio.

The targets (issue 6, complex float32, forward 2D): at 4096², each fast path at most 1.0x
cuFFT's time and within 1.3x of two passes at copy speed (by the run's own copy entry, and by
the file's copy_bandwidth_gbs: two passes each reading and writing the array); at every size at
most 1.2x cuFFT, faster than VkFFT (OpenCL) and faster than clFFT; the real image to its display
at most 0.75x cuFFT's R2C plus a display pass. A size without an entry a target needs is left
out of that target (and named, as measured or not, or as a size the library has no plan for). A ratio that two decimals would round onto its line is printed
with three, so the table never shows a miss as "1.20x".

usage: targets_table.py SWEEP.json > TABLES.md
"""
import json
import sys

APIS = ("cl", "gl")  # the tables' column order: OpenCL, then GL
NAMES = {"cufft": "cuFFT", "vkfft-opencl": "VkFFT", "clfft": "clFFT"}


def size_name(w, h):
    return f"{w}²" if w == h else f"{w}×{h}"


def number(x, decimals=1):
    """1 234.5: a space between thousands (as the docs write them)."""
    return f"{x:,.{decimals}f}".replace(",", " ")


def ratio(r, *lines):
    """r as "0.85×"; with three decimals where two would round it onto one of `lines`."""
    text = f"{r:.2f}"
    if any(abs(float(text) - line) < 1e-9 and abs(r - line) > 1e-12 for line in lines):
        text = f"{r:.3f}"
    return text + "×"


class Sweep:
    def __init__(self, doc):
        self.entries, self.unavailable = {}, set()
        for e in doc["entries"]:
            key = (e["implementation"], e["width"], e["height"])
            if e.get("available", True) and e.get("median_us"):
                self.entries[key] = e["median_us"]
            elif not e.get("available", True):
                self.unavailable.add(key)  # the library has no plan there (clFFT: no prime factor above 13)
        self.bandwidth = doc.get("copy_bandwidth_gbs") or 0
        self.sizes = sorted({(w, h) for (_, w, h) in self.entries}, key=lambda s: (s[0] * s[1], s[0]))

    def us(self, impl, size):
        return self.entries.get((impl,) + size)


def side_by_side(sweep):
    rows = ["| size | cuFFT | 2 × copy | VkFFT (OpenCL) | **CL fast** (× cuFFT, × VkFFT) | **GL fast** (× cuFFT, × VkFFT) "
            "| cuFFT R2C + display | **CL display** (× that) | **GL display** (× that) |",
            "|---|---|---|---|---|---|---|---|---|"]
    for size in sweep.sizes:
        cufft, vkfft = sweep.us("cufft", size), sweep.us("vkfft-opencl", size)
        copy, r2c = sweep.us("opencl-copy", size), sweep.us("cufft-r2c-display", size)
        cells = [size_name(*size), number(cufft) if cufft else "–", number(2 * copy) if copy else "–",
                 number(vkfft) if vkfft else "–"]
        for api in APIS:
            t = sweep.us(f"fftscope-{api}-fast", size)
            refs = [ratio(t / ref, *lines) for ref, lines in ((cufft, (1.0, 1.2)), (vkfft, (1.0,))) if t and ref]
            cells.append("–" if not t else number(t) + (f" ({', '.join(refs)})" if refs else ""))
        cells.append(number(r2c) if r2c else "–")
        for api in APIS:
            t = sweep.us(f"fftscope-{api}-display", size)
            cells.append("–" if not t else number(t) + (f" ({ratio(t / r2c, 0.75)})" if r2c else ""))
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def every_size(sweep, api, impl, ref, line, strictly_below):
    """✓/✗ for `impl` over `ref` at or under (strictly under) `line` at every size both have."""
    misses, worst, lacking, unplanned = [], None, [], []
    for size in sweep.sizes:
        t, r = sweep.us(impl.format(api), size), sweep.us(ref, size)
        if not t or not r:
            if t and (ref,) + size in sweep.unavailable:
                unplanned.append(size_name(*size))
            elif t or r:
                lacking.append(size_name(*size))
            continue
        q = t / r
        if worst is None or q > worst[0]:
            worst = (q, size)
        if q > line or (strictly_below and q >= line):
            misses.append(f"{size_name(*size)} ({ratio(q, line)})")
    if worst is None:
        return "not in this run"
    text = (f"✗ at {', '.join(misses)}" if misses
            else f"✓ (at most {ratio(worst[0], line)}, at {size_name(*worst[1])})")
    if lacking:
        text += f"; not measured at {', '.join(lacking)}"
    if unplanned:
        text += f"; {NAMES.get(ref, ref)} has no plan at {', '.join(unplanned)}"
    return text


def at_4096(sweep, api):
    size = (4096, 4096)
    t, cufft, copy = sweep.us(f"fftscope-{api}-fast", size), sweep.us("cufft", size), sweep.us("opencl-copy", size)
    first = "not in this run"
    if t and cufft:
        q = t / cufft
        first = f"{'✓' if q <= 1.0 else '✗'} {number(t)} µs, {ratio(q, 1.0)}"
    second = "not in this run"
    if t and (copy or sweep.bandwidth):
        parts = []
        if copy:
            q = t / (2 * copy)
            parts.append(f"{'✓' if q <= 1.3 else '✗'} {ratio(q, 1.3)} of the run's copies")
        if sweep.bandwidth:
            passes_us = 2 * 2 * size[0] * size[1] * 8 / (sweep.bandwidth * 1e9) * 1e6
            q = t / passes_us
            parts.append(f"{'✓' if q <= 1.3 else '✗'} {ratio(q, 1.3)} at {number(sweep.bandwidth, 0)} GB/s")
        second = "; ".join(parts)
    return first, second


def targets(sweep):
    rows = ["| target | OpenCL fast path | GL fast path |", "|---|---|---|"]
    first = [at_4096(sweep, api) for api in APIS]
    rows.append("| 4096² ≤ 1.0× cuFFT | " + " | ".join(f[0] for f in first) + " |")
    rows.append("| 4096² within 1.3× of two copy passes | " + " | ".join(f[1] for f in first) + " |")
    checks = (("every sweep size ≤ 1.2× cuFFT", "fftscope-{}-fast", "cufft", 1.2, False),
              ("every sweep size faster than VkFFT (OpenCL)", "fftscope-{}-fast", "vkfft-opencl", 1.0, True),
              ("every sweep size faster than clFFT", "fftscope-{}-fast", "clfft", 1.0, True),
              ("real image → display ≤ 0.75× cuFFT's R2C + display", "fftscope-{}-display", "cufft-r2c-display", 0.75,
               False))
    for name, impl, ref, line, strict in checks:
        rows.append(f"| {name} | " + " | ".join(every_size(sweep, api, impl, ref, line, strict) for api in APIS) + " |")
    return "\n".join(rows)


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1]) as f:
            sweep = Sweep(json.load(f))
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"targets_table.py: {sys.argv[1]}: {e}", file=sys.stderr)
        return 3
    print(side_by_side(sweep))
    print()
    print("✓ met, ✗ not:")
    print()
    print(targets(sweep))
    return 0


if __name__ == "__main__":
    sys.exit(main())
