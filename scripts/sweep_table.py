#!/usr/bin/env python3
"""Merges a sweep run into a sweep file and prints the table docs/results/h100-sweep.txt holds.

`fftscope-cli bench --sweep --json` writes one run; docs/results/h100-sweep.json keeps every
implementation, some from earlier runs (the slow ones are not re-run each session). This puts
the run's entries in place of the same (implementation, size) entries of BASE (appending the
rest), writes the result to OUT.json (a temporary file, then a rename) and prints the table:
x ref is the time over cuFFT's C2C (complex entries) or over cufft-r2c-display (display
entries), x 2 copies the time over two opencl-copy entries of the same size.

usage: sweep_table.py BASE.json RUN.json OUT.json > OUT.txt
"""
import json
import os
import sys


def key(e):
    return (e["implementation"], e["width"], e["height"])


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        base = json.load(f)
    with open(sys.argv[2]) as f:
        run = json.load(f)
    fresh = {key(e): e for e in run["entries"]}
    merged = [fresh.pop(key(e), e) for e in base["entries"]]
    merged += [e for e in run["entries"] if key(e) in fresh]
    out = dict(base, entries=merged)
    if run.get("copy_bandwidth_gbs"):
        out["copy_bandwidth_gbs"] = run["copy_bandwidth_gbs"]
    tmp = sys.argv[3] + ".tmp"
    with open(tmp, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    os.replace(tmp, sys.argv[3])

    def median(impl, w, h):
        for e in merged:
            if key(e) == (impl, w, h) and e.get("available"):
                return e["median_us"]
        return None

    print(f"{'size':<11} {'implementation':<22} {'median us':>10} {'GB/s':>7} {'GFLOP/s':>8} {'x ref':>7} "
          f"{'x 2 copies':>10}  rel err")
    for e in merged:
        size = f"{e['width']}x{e['height']}"
        if not e.get("available"):
            print(f"{size:<11} {e['implementation']:<25} unavailable: {e.get('reason', '')}")
            continue
        impl, t = e["implementation"], e["median_us"]
        display = impl.endswith("display")
        ref = median("cufft-r2c-display" if display else "cufft", e["width"], e["height"])
        copy = median("opencl-copy", e["width"], e["height"])
        x_ref = f"{t / ref:.2f}" if ref and impl != "opencl-copy" else "-"
        x_copy = f"{t / (2 * copy):.2f}" if copy and not display and impl != "opencl-copy" else "-"
        print(f"{size:<11} {impl:<22} {t:>10.1f} {e['bandwidth_gbs']:>7.0f} {e['gflops']:>8.0f} {x_ref:>7} "
              f"{x_copy:>10}  {e['rel_error']:.1e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
