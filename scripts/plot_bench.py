#!/usr/bin/env python3
"""Plots a `fftscope-cli bench --sweep --json` result: time per size for every implementation,
with the two-pass copy limit as lines: twice the run's own "opencl-copy" entries, and two passes
at the JSON's copy_bandwidth_gbs where given; below it, where cuFFT ran, each fast entry's time
over cuFFT's at the same size (the display entries over cuFFT's R2C + display), with issue 6's
targets (1.0 and 1.2 for transforms, 0.75 for displays) and the spread of the rounds where the
sweep ran several (`--rounds`). In a merged file whose APIs were timed in separate calls
(scripts/sweep_table.py with a run label), each ratio is over the reference of the entry's own
call, and the time plot draws the reference of the last merged call. Needs matplotlib
(scripts/setup.sh puts it in .venv/ on request: `bash scripts/setup.sh --plot`).

usage: plot_bench.py SWEEP.json OUT.png
"""
import json
import math
import os
import sys
import tempfile

from targets_table import Sweep


def plot_ratios(ax, entries, sizes, sweep) -> None:
    """Each fast transform over cuFFT and each display over cuFFT's R2C + display (of the
    entry's own call), per size; the bars span the rounds' medians (each over the same
    reference)."""
    compared = ["fftscope-gl-fast", "fftscope-cl-fast", "vkfft-opencl", "clfft", "fftscope-gl-display",
                "fftscope-cl-display"]
    styles = {"fftscope-gl-fast": ("-", "o", "tab:blue"), "fftscope-cl-fast": ("-", "s", "tab:green"),
              "vkfft-opencl": (":", "^", "tab:gray"), "clfft": (":", "v", "tab:brown"),
              "fftscope-gl-display": ("--", "o", "tab:purple"), "fftscope-cl-display": ("--", "s", "tab:olive")}
    for impl in compared:
        over_name = "cufft-r2c-display" if impl.endswith("-display") else "cufft"
        # Every size, NaN where this entry is missing: the line breaks there instead of joining
        # sizes it has no figure between (the displays skip sizes with a prime factor above 13).
        ys, lows, highs = [math.nan] * len(sizes), [0.0] * len(sizes), [0.0] * len(sizes)
        for i, s in enumerate(sizes):
            for e in entries:
                reference = sweep.us(over_name, s, e.get("run"))
                if e["implementation"] == impl and (e["width"], e["height"]) == s and reference:
                    ratio = e["median_us"] / reference
                    rounds = [r / reference for r in e.get("round_medians_us", [])] or [ratio]
                    ys[i] = ratio
                    lows[i] = ratio - min(rounds)
                    highs[i] = max(rounds) - ratio
        if all(math.isnan(y) for y in ys):
            continue
        xs = list(range(len(sizes)))
        line, marker, color = styles[impl]
        over = "cuFFT R2C + display" if impl.endswith("-display") else "cuFFT"
        ax.errorbar(xs, ys, yerr=[lows, highs], linestyle=line, marker=marker, color=color, capsize=2,
                    label=f"{impl} / {over}")
    for level, text in ((1.0, "1.0"), (1.2, "1.2 (transforms)"), (0.75, "0.75 (displays)")):
        ax.axhline(level, color="k", linewidth=0.8, linestyle="-" if level == 1.0 else "--")
        ax.annotate(text, (-0.4, level), fontsize=8, va="bottom", ha="left")
    ax.set_yscale("log")
    ax.set_ylim(0.3, 4)
    ticks = [0.4, 0.5, 0.75, 1.0, 1.2, 1.5, 2.0, 3.0]
    ax.set_yticks(ticks)
    ax.set_yticklabels([f"{t:g}" for t in ticks])
    ax.minorticks_off()
    ax.set_ylabel("time / cuFFT's at the same size")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, ncol=2)


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
    # One entry per implementation and size for the time plot: the last merged.
    entries = list({(e["implementation"], e["width"], e["height"]): e
                    for e in sweep["entries"] if e.get("available")}.values())
    sizes = sorted({(e["width"], e["height"]) for e in entries}, key=lambda s: s[0] * s[1])
    labels = [f"{w}x{h}" for w, h in sizes]
    if any(e["implementation"] == "cufft" for e in entries):
        fig, (ax, ratio_ax) = plt.subplots(2, 1, figsize=(11, 10), height_ratios=[3, 2], sharex=True)
    else:
        fig, ax = plt.subplots(figsize=(11, 6))
        ratio_ax = None
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
    bottom = ratio_ax if ratio_ax is not None else ax
    bottom.set_xticks(range(len(sizes)))
    bottom.set_xticklabels(labels, rotation=45, ha="right")
    if ratio_ax is not None:
        plot_ratios(ratio_ax, [e for e in sweep["entries"] if e.get("available")], sizes, Sweep(sweep))
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
