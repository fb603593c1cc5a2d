#!/usr/bin/env python3
"""Plots a `fftscope-cli bench --sweep --json` result: time per size for every implementation,
with the two-pass copy limit as lines: twice the run's own "opencl-copy" entries, and two passes
at the JSON's copy_bandwidth_gbs where given. Needs matplotlib (scripts/setup.sh puts it in
.venv/ on request: `bash scripts/setup.sh --plot`).

usage: plot_bench.py SWEEP.json OUT.png
"""
import json
import os
import sys
import tempfile


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_bench.py: matplotlib is not installed (bash scripts/setup.sh --plot)", file=sys.stderr)
        return 4
    with open(sys.argv[1]) as f:
        sweep = json.load(f)
    entries = [e for e in sweep["entries"] if e.get("available")]
    sizes = sorted({(e["width"], e["height"]) for e in entries}, key=lambda s: s[0] * s[1])
    labels = [f"{w}x{h}" for w, h in sizes]
    fig, ax = plt.subplots(figsize=(11, 6))
    # 15 implementations outnumber the colour cycle: a line style per implementation family.
    styles = {"fftscope-gl": ("-", "o"), "fftscope-cl": ("-", "s"), "cufft": (":", "D"), "vkfft": (":", "^"),
              "clfft": (":", "v"), "fftw": (":", "x")}
    colors = iter(plt.get_cmap("tab20").colors)
    copy = {(e["width"], e["height"]): e["median_us"] for e in entries if e["implementation"] == "opencl-copy"}
    for impl in sorted({e["implementation"] for e in entries} - {"opencl-copy"}):
        xs, ys = [], []
        for i, s in enumerate(sizes):
            for e in entries:
                if e["implementation"] == impl and (e["width"], e["height"]) == s:
                    xs.append(i)
                    ys.append(e["median_us"])
        line, marker = next((v for k, v in styles.items() if impl.startswith(k)), ("-", "o"))
        ax.plot(xs, ys, linestyle=line, marker=marker, color=next(colors), label=impl)
    bw = sweep.get("copy_bandwidth_gbs", 0)
    if copy:
        # Two passes (rows, columns), each as long as one copy of the array in the same run (at
        # small sizes clEnqueueCopyBuffer's own launch cost dominates it).
        xs = [i for i, s in enumerate(sizes) if s in copy]
        ax.plot(xs, [2 * copy[sizes[i]] for i in xs], "k--", label="2 x clEnqueueCopyBuffer of the array, same run")
    if bw:
        # Two passes (rows, columns), each one read and one write of complex64 data.
        limit = [2 * 2 * w * h * 8 / (bw * 1e3) for w, h in sizes]
        ax.plot(range(len(sizes)), limit, "k:", label=f"2 passes at {bw:.0f} GB/s copy bandwidth")
    ax.set_yscale("log")
    ax.set_xticks(range(len(sizes)))
    ax.set_xticklabels(labels, rotation=45, ha="right")
    ax.set_ylabel("median time per forward 2D transform (us)")
    devices = sorted({e["device"] for e in entries if e["implementation"].startswith(("cufft", "fftscope-cl"))})
    ax.set_title("complex float32 2D FFT" + (f" — {devices[0]}" if devices else ""))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    out = sys.argv[2]
    fd, tmp = tempfile.mkstemp(suffix=".png", dir=os.path.dirname(os.path.abspath(out)))
    os.close(fd)
    try:
        fig.savefig(tmp, dpi=110)
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
