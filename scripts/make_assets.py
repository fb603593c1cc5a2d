#!/usr/bin/env python3
"""Writes the synthetic test images in assets/ (8-bit grey PNG, Python standard library only).

    python3 scripts/make_assets.py                       # the synthetic images
    python3 scripts/make_assets.py --skimage-wheel W.whl # also extract assets/astronaut.png

The photograph comes from scikit-image's wheel (`pip download --no-deps scikit-image`), which
ships NASA's public-domain portrait of Eileen Collins as skimage/data/astronaut.png.
Every image is deterministic: running this again gives byte-identical files.
"""
import argparse
import math
import pathlib
import struct
import zipfile
import zlib

ASSETS = pathlib.Path(__file__).resolve().parent.parent / "assets"


def write_png_gray8(path, width, height, pixel):
    """pixel(x, y) -> value in [0, 1]; stored as round(255 v), clamped."""
    raw = bytearray()
    for y in range(height):
        raw.append(0)  # filter type: none
        for x in range(width):
            v = min(max(pixel(x, y), 0.0), 1.0)
            raw.append(int(math.floor(v * 255.0 + 0.5)))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")
    path.write_bytes(png)
    print(f"wrote {path.relative_to(ASSETS.parent)} ({width}x{height}, {len(png)} bytes)")


def grating(width, height, degrees, period):
    """0.5 + 0.5 cos(2 pi (x cos a + y sin a) / period): a single spatial frequency."""
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return lambda x, y: 0.5 + 0.5 * math.cos(2.0 * math.pi * (x * c + y * s) / period)


def rectangle(width, height, rw, rh):
    """A white rw x rh rectangle centred on black: its spectrum is a 2D sinc."""
    x0, y0 = (width - rw) // 2, (height - rh) // 2
    return lambda x, y: 1.0 if x0 <= x < x0 + rw and y0 <= y < y0 + rh else 0.0


def checkerboard(square):
    return lambda x, y: float(((x // square) + (y // square)) % 2)


def ring(width, height, r_inner, r_outer):
    """An annulus, antialiased by 4x4 supersampling: its spectrum is a ring-shaped Bessel pattern."""
    cx, cy = (width - 1) / 2.0, (height - 1) / 2.0

    def pixel(x, y):
        inside = 0
        for i in range(4):
            for j in range(4):
                r = math.hypot(x + (i + 0.5) / 4 - 0.5 - cx, y + (j + 0.5) / 4 - 0.5 - cy)
                inside += r_inner <= r < r_outer
        return inside / 16.0

    return pixel


def impulse(width, height):
    """One white pixel at (width/2, height/2): a flat magnitude spectrum."""
    return lambda x, y: 1.0 if (x, y) == (width // 2, height // 2) else 0.0


IMAGES = [
    # name, width, height, pixel function
    ("grating_0deg_256.png", 256, 256, grating(256, 256, 0, 16)),
    ("grating_30deg_256.png", 256, 256, grating(256, 256, 30, 16)),
    ("grating_45deg_256.png", 256, 256, grating(256, 256, 45, 16)),
    ("grating_90deg_256.png", 256, 256, grating(256, 256, 90, 16)),
    ("grating_30deg_320x200.png", 320, 200, grating(320, 200, 30, 20)),
    ("grating_45deg_255.png", 255, 255, grating(255, 255, 45, 15)),
    ("rectangle_256.png", 256, 256, rectangle(256, 256, 32, 16)),
    ("rectangle_320x200.png", 320, 200, rectangle(320, 200, 40, 20)),
    ("checkerboard_256.png", 256, 256, checkerboard(16)),
    ("ring_256.png", 256, 256, ring(256, 256, 40, 48)),
    ("ring_255.png", 255, 255, ring(255, 255, 40, 48)),
    ("impulse_256.png", 256, 256, impulse(256, 256)),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--skimage-wheel", type=pathlib.Path, help="scikit-image wheel to take astronaut.png from")
    args = parser.parse_args()
    ASSETS.mkdir(exist_ok=True)
    for name, width, height, pixel in IMAGES:
        write_png_gray8(ASSETS / name, width, height, pixel)
    if args.skimage_wheel:
        with zipfile.ZipFile(args.skimage_wheel) as wheel:
            data = wheel.read("skimage/data/astronaut.png")
        (ASSETS / "astronaut.png").write_bytes(data)
        print(f"wrote assets/astronaut.png ({len(data)} bytes) from {args.skimage_wheel.name}")


if __name__ == "__main__":
    main()
