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

Ratios are measured side by side: where a merged file (scripts/sweep_table.py with a run label)
holds each API's entries from a different call, every fftscope entry is divided by the reference
of its own call (the entries' "run"), and a reference cell that differs between the two APIs'
calls shows both, OpenCL's first ("11.9 / 10.7"). Entries without a label share the file's one
reference.

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
        # (implementation, width, height) -> [(run label or None, median)], in the file's order
        self.entries, self.unavailable = {}, set()
        for e in doc["entries"]:
            key = (e["implementation"], e["width"], e["height"])
            if e.get("available", True) and e.get("median_us"):
                self.entries.setdefault(key, []).append((e.get("run"), e["median_us"]))
            elif not e.get("available", True):
                self.unavailable.add(key)  # the library has no plan there (clFFT: no prime factor above 13)
        self.bandwidth = doc.get("copy_bandwidth_gbs") or 0
        self.sizes = sorted({(w, h) for (_, w, h) in self.entries}, key=lambda s: (s[0] * s[1], s[0]))

    def run(self, impl, size):
        """The call that timed `impl` at `size` (None: unlabeled or not measured)."""
        found = self.entries.get((impl,) + size)
        return found[0][0] if found else None

    def us(self, impl, size, run=None):
        """`impl`'s median at `size`: the entry of call `run` where there is one, else the
        unlabeled entry, else the last merged."""
        found = self.entries.get((impl,) + size)
        if not found:
            return None
        for wanted in (run, None):
            for label, us in found:
                if label == wanted:
                    return us
        return found[-1][1]

    def ref(self, impl, ref, size):
        """The reference `ref` for `impl` at `size`, from the call that timed `impl`."""
        return self.us(ref, size, self.run(impl, size))


def side_by_side(sweep):
    rows = ["| size | cuFFT | 2 × copy | VkFFT (OpenCL) | **CL fast** (× cuFFT, × VkFFT) | **GL fast** (× cuFFT, × VkFFT) "
            "| cuFFT R2C + display | **CL display** (× that) | **GL display** (× that) |",
            "|---|---|---|---|---|---|---|---|---|"]
    def reference(ref, size, kind, scale=1):
        """The reference's cell: one value, or each API's call's where they differ."""
        values = [sweep.ref(f"fftscope-{api}-{kind}", ref, size) for api in APIS]
        values = [v for v in values if v] or [sweep.us(ref, size)]
        if not values[0]:
            return "–"
        return " / ".join(number(scale * v) for v in (values if len(set(values)) > 1 else values[:1]))

    for size in sweep.sizes:
        cells = [size_name(*size), reference("cufft", size, "fast"), reference("opencl-copy", size, "fast", 2),
                 reference("vkfft-opencl", size, "fast")]
        for api in APIS:
            impl = f"fftscope-{api}-fast"
            t = sweep.us(impl, size)
            refs = [ratio(t / r, *lines) for r, lines in ((sweep.ref(impl, "cufft", size), (1.0, 1.2)),
                                                          (sweep.ref(impl, "vkfft-opencl", size), (1.0,))) if t and r]
            cells.append("–" if not t else number(t) + (f" ({', '.join(refs)})" if refs else ""))
        cells.append(reference("cufft-r2c-display", size, "display"))
        for api in APIS:
            impl = f"fftscope-{api}-display"
            t, r2c = sweep.us(impl, size), sweep.ref(impl, "cufft-r2c-display", size)
            cells.append("–" if not t else number(t) + (f" ({ratio(t / r2c, 0.75)})" if r2c else ""))
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def every_size(sweep, api, impl, ref, line, strictly_below):
    """✓/✗ for `impl` over `ref` at or under (strictly under) `line` at every size both have."""
    misses, worst, lacking, unplanned = [], None, [], []
    for size in sweep.sizes:
        t, r = sweep.us(impl.format(api), size), sweep.ref(impl.format(api), ref, size)
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
    impl = f"fftscope-{api}-fast"
    t, cufft, copy = sweep.us(impl, size), sweep.ref(impl, "cufft", size), sweep.ref(impl, "opencl-copy", size)
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
