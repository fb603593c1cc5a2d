#!/usr/bin/env python3
"""Shared-memory bank cycles of one fast-path line's Stockham exchanges, per local layout.

Models fast_stage.glsl / fast_fft.cl for a line of M points in one group: butterfly j of a stage
of radix R and span NS reads element j + r M/R and writes (j - j % NS) R + j % NS + r NS; each
exchange between two stages is the writes of one and the reads of the next, through floats (the
halves: 32 banks of 4 bytes). Consecutive butterflies go to consecutive lanes of a warp of 32. For
each warp's access, the cycles are the most distinct slots that meet in one bank; the ratio is
their sum over the conflict-free count (one cycle per access). Slots per layout are LOCAL_PAD's:
padded i + i/16, unpadded i, swizzled i ^ ((i >> 4) & 31) (Tuning::swizzled_rows).

    scripts/bank_conflicts.py 4000 8,10,10,5 16,10,5,5
"""
import argparse
import math

LAYOUTS = {
    "unpadded": lambda i: i,
    "padded": lambda i: i + (i >> 4),
    "swizzled": lambda i: i ^ ((i >> 4) & 31),
}


def warp_cycles(slots):
    per_bank = {}
    for s in set(slots):
        per_bank[s % 32] = per_bank.get(s % 32, 0) + 1
    return max(per_bank.values())


def stage_cycles(per, radix, element, slot):
    """(cycles, accesses) of one stage's reads or writes: butterflies j < per on consecutive
    lanes, element(j, r) for each of the radix values."""
    cycles = accesses = 0
    for base in range(0, per, 32):
        lanes = range(base, min(base + 32, per))
        for r in range(radix):
            cycles += warp_cycles([slot(element(j, r)) for j in lanes])
            accesses += 1
    return cycles, accesses


def exchange_cycles(m, radices, slot):
    """(cycles, accesses) of every exchange between two stages of the line: one stage's writes,
    the next one's reads."""
    cycles = accesses = 0
    span = 1
    for radix, radix_next in zip(radices, radices[1:]):
        writes = stage_cycles(m // radix, radix, lambda j, r: (j - j % span) * radix + j % span + r * span, slot)
        span *= radix
        per_next = m // radix_next
        reads = stage_cycles(per_next, radix_next, lambda j, r: j + r * per_next, slot)
        cycles += writes[0] + reads[0]
        accesses += writes[1] + reads[1]
    return cycles, accesses


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("m", type=int, help="line length")
    parser.add_argument("radices", nargs="+", help="comma-separated radices of a plan, first stage first")
    args = parser.parse_args()
    for text in args.radices:
        radices = [int(r) for r in text.split(",")]
        product = math.prod(radices)
        if product != args.m:
            parser.error(f"{text}: the radices multiply to {product}, not {args.m}")
        for name, slot in LAYOUTS.items():
            if name == "swizzled" and args.m % 32:
                continue  # the swizzle permutes runs of 32: only lines of whole runs
            cycles, accesses = exchange_cycles(args.m, radices, slot)
            print(f"{args.m} ({' '.join(map(str, radices))}) {name:9s} {cycles / max(accesses, 1):.2f}x conflict-free")


if __name__ == "__main__":
    main()
