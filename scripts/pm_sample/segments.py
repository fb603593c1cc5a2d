#!/usr/bin/env python3
"""Cuts pm_sample's CSV into the stretches of work its command ran between pauses, and prints
each stretch's counters: the median over its samples of each metric per microsecond, and the
ratios that compare two APIs' passes (the SMs' active share, instructions per active SM cycle,
DRAM traffic in GB/s).

    python3 scripts/pm_sample/segments.py [--runs N] samples.csv [NAME ...]
    python3 scripts/pm_sample/segments.py --probe-log probe.txt samples.csv

A sample is idle when its SMs were active under 2 % of its elapsed cycles (without those
counters: when every metric reads 0); a stretch is a run of
at least 5 busy samples, and the first and last samples of each stretch (partly idle) are left
out. NAMEs label the stretches in order (fast_probe_gl's FFTSCOPE_GL_PM prints them as it runs).
With --runs (the N of FFTSCOPE_GL_PM / FFTSCOPE_CL_PM) each counter is also given per run: its
sum over the stretch over N (the two partly idle samples left out are within 0.1 % at 20 us).

With --probe-log (the probe's own output, with its "pm stretch SIZE NAME: N runs, T us a run"
lines) the names go to detected stretches in order, leaving stretches out where that makes the
spans agree best with the probe's N x T (the least sum of |log(span / (N T))|), so a warm-up that
compiling broke into pieces cannot shift the names; the runs per stretch come from the log too.
"""
import csv
import math
import re
import statistics
import sys


def main():
    args = sys.argv[1:]
    runs, expected = 0, []
    if len(args) >= 2 and args[0] == "--runs":
        runs, args = int(args[1]), args[2:]
    elif len(args) >= 2 and args[0] == "--probe-log":
        with open(args[1]) as f:
            expected = [(m[1], int(m[2]), float(m[3]))
                        for m in re.finditer(r"pm stretch \S+ (\S+): (\d+) runs, ([\d.]+) us a run", f.read())]
        if not expected:
            sys.exit(f"{args[1]}: no 'pm stretch' lines")
        args = args[2:]
    path, names = args[0], args[1:]
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit("no samples")
    metrics = [k for k in rows[0] if k not in ("start_ns", "end_ns")]

    def busy(r):
        if "sm__cycles_active.avg" not in r or "gpc__cycles_elapsed.max" not in r:
            return any(float(r[k]) > 0 for k in metrics)  # no activity counter sampled
        elapsed = float(r["gpc__cycles_elapsed.max"])
        return elapsed > 0 and float(r["sm__cycles_active.avg"]) / elapsed > 0.02

    stretches, current = [], []
    for r in rows:
        if busy(r):
            current.append(r)
        elif current:
            stretches.append(current)
            current = []
    if current:
        stretches.append(current)
    stretches = [s[1:-1] for s in stretches if len(s) >= 5]
    print(f"{len(rows)} samples, {len(stretches)} stretches; metrics: {', '.join(metrics)}")

    def span(s):
        return (int(s[-1]["end_ns"]) - int(s[0]["start_ns"])) / 1000

    if expected:
        # The names in order against the stretches in order, so that the sum of |log(span /
        # expected)| is least: a warm-up whose host time included compiling matches badly, but
        # cannot pull the later names off their stretches.
        def cost(i, j):
            _, n, us_a_run = expected[i]
            return abs(math.log(max(span(stretches[j]), 1.0) / max(n * us_a_run, 1.0)))

        names_n, found = len(expected), len(stretches)
        if found < names_n:
            sys.exit(f"{found} stretches for {names_n} names")
        best = {(0, 0): (0.0, [])}  # (names placed, stretches used) -> (cost, chosen stretches)
        for j in range(found):
            for (i, used), (c, chosen) in list(best.items()):
                if used != j or i == names_n:
                    continue
                for key, value in (((i, j + 1), (c, chosen)),
                                   ((i + 1, j + 1), (c + cost(i, j), chosen + [j]))):
                    if key not in best or value[0] < best[key][0]:
                        best[key] = value
        chosen = best[(names_n, found)][1]
        labelled = [(name, n, stretches[j]) for (name, n, _), j in zip(expected, chosen)]
    else:
        labelled = [(names[i] if i < len(names) else f"stretch {i}", runs, s) for i, s in enumerate(stretches)]
    for name, runs, s in labelled:
        span_us = span(s)

        def per_us(r, key):
            return float(r[key]) / ((int(r["end_ns"]) - int(r["start_ns"])) / 1000)

        def med(fn):
            values = [fn(r) for r in s]
            return statistics.median(values) if values else float("nan")

        print(f"\n== {name}: {len(s)} samples over {span_us:.0f} us")
        for key in metrics:
            a_run = f"{sum(float(r[key]) for r in s) / runs:14.4g} a run" if runs else ""
            print(f"  {key:52s} {med(lambda r: per_us(r, key)):14.4g} /us {a_run}")
        derived = []
        if "sm__cycles_active.avg" in metrics and "gpc__cycles_elapsed.max" in metrics:
            derived.append(("SMs active share", med(lambda r: float(r["sm__cycles_active.avg"]) / float(r["gpc__cycles_elapsed.max"]))))
        if "smsp__inst_executed.sum" in metrics and "sm__cycles_active.sum" in metrics:
            derived.append(("instructions per active SM cycle", med(lambda r: float(r["smsp__inst_executed.sum"]) / max(float(r["sm__cycles_active.sum"]), 1))))
        if "dram__bytes_read.sum" in metrics and "dram__bytes_write.sum" in metrics:
            read = med(lambda r: per_us(r, "dram__bytes_read.sum")) / 1000
            write = med(lambda r: per_us(r, "dram__bytes_write.sum")) / 1000
            derived.append(("DRAM GB/s read, write", f"{read:.0f}, {write:.0f}"))
            total = sorted((per_us(r, "dram__bytes_read.sum") + per_us(r, "dram__bytes_write.sum")) / 1000 for r in s)
            q = [total[int(f * (len(total) - 1))] for f in (0.1, 0.5, 0.9)]
            derived.append(("DRAM GB/s read + write, 10 / 50 / 90 %", f"{q[0]:.0f} / {q[1]:.0f} / {q[2]:.0f}"))
        for label, value in derived:
            print(f"  {label:52s} {value if isinstance(value, str) else f'{value:14.4g}'}")


if __name__ == "__main__":
    main()
