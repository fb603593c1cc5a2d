#!/usr/bin/env python3
"""Merges a sweep run into a sweep file and prints the table docs/results/h100-sweep.txt holds.

`fftscope-cli bench --sweep --json` writes one run; docs/results/h100-sweep.json keeps every
implementation, some from earlier runs (the slow ones are not re-run each session). This puts
the run's entries in place of the same (implementation, size) entries of BASE (appending the
rest), writes the result to OUT.json (a temporary file, then a rename) and prints the table:
x ref is the time over cuFFT's C2C (complex entries) or over cufft-r2c-display (display
entries), x 2 copies the time over two opencl-copy entries of the same size.

With LABEL (the call's name, "run463"), the run's entries carry it as "run", and the references
(every entry not fftscope's own: cuFFT, VkFFT, the copy, ...) of other labeled calls stay beside
them, so that each API's entries keep the references timed in their own call when the APIs are
timed in separate calls: targets_table.py and the ratios below divide by those. A labeled
reference that no fftscope entry of its call and size needs any more is dropped.

usage: sweep_table.py BASE.json RUN.json OUT.json [LABEL] > OUT.txt
"""
import json
import os
import sys

from targets_table import Sweep


def key(e):
    return (e["implementation"], e["width"], e["height"])


def is_reference(e):
    return not e["implementation"].startswith("fftscope-")


def merge(base_entries, run_entries, label=None):
    """BASE's entries with RUN's in place of the same (implementation, size); with `label`,
    references of other labeled calls are kept, and those left without a call's entry to
    serve are dropped."""
    if label:
        run_entries = [dict(e, run=label) for e in run_entries]
    fresh = {key(e): e for e in run_entries}

    def replaced(e):
        return key(e) in fresh and not (label and is_reference(e) and e.get("run") not in (None, label))

    merged, placed = [], set()
    for e in base_entries:
        if not replaced(e):
            merged.append(e)
        elif key(e) not in placed:
            merged.append(fresh[key(e)])
            placed.add(key(e))
    merged += [e for e in run_entries if key(e) not in placed]
    served = {(e.get("run"), e["width"], e["height"]) for e in merged if not is_reference(e)}

    def unneeded(e):  # a reference of an earlier labeled call whose entries were all replaced
        return (is_reference(e) and e.get("run") not in (None, label)
                and (e["run"], e["width"], e["height"]) not in served)

    return [e for e in merged if not unneeded(e)]


def main() -> int:
    if len(sys.argv) not in (4, 5):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        base = json.load(f)
    with open(sys.argv[2]) as f:
        run = json.load(f)
    merged = merge(base["entries"], run["entries"], sys.argv[4] if len(sys.argv) == 5 else None)
    out = dict(base, entries=merged)
    if run.get("copy_bandwidth_gbs"):
        out["copy_bandwidth_gbs"] = run["copy_bandwidth_gbs"]
    tmp = sys.argv[3] + ".tmp"
    with open(tmp, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    os.replace(tmp, sys.argv[3])

    sweep = Sweep(out)
    print(f"{'size':<11} {'implementation':<22} {'median us':>10} {'GB/s':>7} {'GFLOP/s':>8} {'x ref':>7} "
          f"{'x 2 copies':>10}  rel err  call")
    for e in merged:
        name = f"{e['width']}x{e['height']}"
        if not e.get("available"):
            print(f"{name:<11} {e['implementation']:<25} unavailable: {e.get('reason', '')}")
            continue
        impl, t, run = e["implementation"], e["median_us"], e.get("run")
        display = impl.endswith("display")
        size = (e["width"], e["height"])
        ref = sweep.us("cufft-r2c-display" if display else "cufft", size, run)
        copy = sweep.us("opencl-copy", size, run)
        x_ref = f"{t / ref:.2f}" if ref and impl != "opencl-copy" else "-"
        x_copy = f"{t / (2 * copy):.2f}" if copy and not display and impl != "opencl-copy" else "-"
        print(f"{name:<11} {impl:<22} {t:>10.1f} {e['bandwidth_gbs']:>7.0f} {e['gflops']:>8.0f} {x_ref:>7} "
              f"{x_copy:>10}  {e['rel_error']:.1e}  {run or ''}".rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
