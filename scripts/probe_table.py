#!/usr/bin/env python3
"""Puts the per-pass times of fast_probe_gl / fast_probe_cl runs side by side, variant against
variant, from the raw output docs/results/h100-probes-*.txt keep.

A probe prints one line per size ("WxH  rows_us  cols_us  total_us  ..."); the run scripts put a
header before each variant's probe: "-- round N LABEL" (the session scripts) or "== API LABEL ..."
(scripts/device_tuning.sh). This groups the lines by size, one row per variant, each round's
rows / cols / total in turn, and with --against LABEL each variant's total over that variant's
(the median of its rounds) at the same size.

usage: probe_table.py [--against LABEL] PROBE_OUTPUT.txt
"""
import re
import statistics
import sys

HEADER = re.compile(r"^(?:-- round \d+ |== )(.+?)\s*$")
LINE = re.compile(r"^(\d+x\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s")


def read(path):
    """{size: {label: [(rows, cols, total), ...]}} in the order first seen."""
    table = {}
    label = None
    with open(path) as f:
        for text in f:
            header = HEADER.match(text)
            if header:
                label = header.group(1)
                continue
            line = LINE.match(text)
            if line and label is not None:
                times = tuple(float(v) for v in line.groups()[1:])
                table.setdefault(line.group(1), {}).setdefault(label, []).append(times)
    return table


def main() -> int:
    args = sys.argv[1:]
    against = None
    if len(args) == 3 and args[0] == "--against":
        against, args = args[1], args[2:]
    if len(args) != 1:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    table = read(args[0])
    if not table:
        print(f"probe_table.py: no probe lines in {args[0]}", file=sys.stderr)
        return 3
    width = max(len(label) for variants in table.values() for label in variants)
    for size, variants in table.items():
        print(size)
        base = variants.get(against)
        base_total = statistics.median(t[2] for t in base) if base else None
        for label, rounds in variants.items():
            cells = "  |  ".join(f"{r:8.1f} {c:8.1f} {t:8.1f}" for r, c, t in rounds)
            ratio = ""
            if base_total:
                ratio = f"   x{statistics.median(t[2] for t in rounds) / base_total:.3f}"
            print(f"  {label:<{width}}  {cells}{ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
