#!/usr/bin/env python3
"""Writes the fuzzers' seed corpus: small valid files in every format stb_image reads (several
variants each: bit depths, palettes, interlacing, RLE), NPY arrays and a GUI settings file.
Run once: `python3 fuzz/make_seeds.py`; JPEGs need cjpeg (Debian's libjpeg-turbo-progs).
The seeds are committed; this script says how they were made."""
import os
import shutil
import struct
import subprocess
import tempfile
import zlib

top = os.path.dirname(os.path.abspath(__file__))
out = {k: os.path.join(top, "corpus", k) for k in ("image_loader", "npy", "settings")}
for d in out.values():
    os.makedirs(d, exist_ok=True)


def put(kind, name, data):
    with open(os.path.join(out[kind], name), "wb") as f:
        f.write(data)


def pixels(w, h, c, maxval=255):
    """A smooth deterministic test pattern, row-major, c samples per pixel."""
    return [((x * 37 + y * 91 + k * 53) * 7) % (maxval + 1) for y in range(h) for x in range(w) for k in range(c)]


# --- PNG ----------------------------------------------------------------------------------------
def png_chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)


def png(w, h, depth, ctype, rows, interlace=0, extra=b""):
    ihdr = struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, interlace)
    raw = b"".join(rows)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + extra + png_chunk(b"IDAT", zlib.compress(raw, 9)) + png_chunk(b"IEND", b"")


def png_rows(w, h, c, depth, filt=0):
    samples = pixels(w, h, c, (1 << depth) - 1)
    rows = []
    for y in range(h):
        s = samples[y * w * c:(y + 1) * w * c]
        if depth == 16:
            body = b"".join(struct.pack(">H", v) for v in s)
        elif depth == 8:
            body = bytes(s)
        else:  # pack sub-byte samples, MSB first
            bits = "".join(format(v, "0%db" % depth) for v in s)
            bits += "0" * (-len(bits) % 8)
            body = bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
        if filt == 1:  # Sub filter, to reach the unfiltering code
            bpp = max(1, c * depth // 8)
            body = bytes((body[i] - (body[i - bpp] if i >= bpp else 0)) & 255 for i in range(len(body)))
        rows.append(bytes([filt]) + body)
    return rows


put("image_loader", "gray8.png", png(4, 4, 8, 0, png_rows(4, 4, 1, 8)))
put("image_loader", "gray1.png", png(9, 2, 1, 0, png_rows(9, 2, 1, 1)))
put("image_loader", "rgb8_sub.png", png(5, 3, 8, 2, png_rows(5, 3, 3, 8, filt=1)))
put("image_loader", "rgba16.png", png(3, 2, 16, 6, png_rows(3, 2, 4, 16)))
put("image_loader", "graya8.png", png(3, 3, 8, 4, png_rows(3, 3, 2, 8)))
plte = png_chunk(b"PLTE", bytes(pixels(16, 1, 3))) + png_chunk(b"tRNS", bytes([255, 128, 0]))
put("image_loader", "palette4_trns.png", png(4, 3, 4, 3, png_rows(4, 3, 1, 4), extra=plte))


def adam7_rows(w, h, c):
    samples = pixels(w, h, c)
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    rows = []
    for x0, y0, dx, dy in passes:
        for y in range(y0, h, dy):
            row = b"".join(bytes(samples[(y * w + x) * c:(y * w + x + 1) * c]) for x in range(x0, w, dx))
            if row:
                rows.append(b"\x00" + row)
    return rows


put("image_loader", "rgb8_interlaced.png", png(5, 5, 8, 2, adam7_rows(5, 5, 3), interlace=1))
# The zlib stream split over several IDAT chunks of 7 bytes (decoder_guard inflates across them).
split = zlib.compress(b"".join(png_rows(6, 4, 3, 8)), 9)
put("image_loader", "rgb8_split_idat.png",
    b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 6, 4, 8, 2, 0, 0, 0)) +
    b"".join(png_chunk(b"IDAT", split[i:i + 7]) for i in range(0, len(split), 7)) + png_chunk(b"IEND", b""))

# --- PNM ----------------------------------------------------------------------------------------
put("image_loader", "gray8.pgm", b"P5\n# seed\n4 3\n255\n" + bytes(pixels(4, 3, 1)))
put("image_loader", "rgb8.ppm", b"P6 3 2 255\n" + bytes(pixels(3, 2, 3)))
put("image_loader", "gray16.pgm", b"P5\n3 3\n65535\n" + b"".join(struct.pack(">H", v) for v in pixels(3, 3, 1, 65535)))

# --- BMP ----------------------------------------------------------------------------------------
def bmp(w, h, bpp, body, palette=b"", header_size=40, masks=b""):
    compression = 3 if masks else 0
    info = struct.pack("<IiiHHIIiiII", header_size, w, h, 1, bpp, compression, len(body), 2835, 2835,
                       len(palette) // 4, 0)
    info += masks
    info += b"\x00" * (header_size - len(info))
    off = 14 + len(info) + len(palette)
    return b"BM" + struct.pack("<IHHI", off + len(body), 0, 0, off) + info + palette + body


def bmp_body(w, h, bytes_per_px):
    row_len = (w * bytes_per_px + 3) // 4 * 4
    s = pixels(w, h, bytes_per_px)
    return b"".join(bytes(s[y * w * bytes_per_px:(y + 1) * w * bytes_per_px]).ljust(row_len, b"\0") for y in range(h))


put("image_loader", "rgb24.bmp", bmp(3, 2, 24, bmp_body(3, 2, 3)))
put("image_loader", "rgba32_bitfields.bmp",
    bmp(2, 2, 32, bmp_body(2, 2, 4), header_size=108,
        masks=struct.pack("<IIII", 0x00FF0000, 0x0000FF00, 0x000000FF, 0xFF000000)))
pal = b"".join(bytes([i * 60 % 256, i * 30 % 256, i * 90 % 256, 0]) for i in range(4))
put("image_loader", "pal8_topdown.bmp", bmp(3, -2, 8, bytes([0, 1, 2, 0, 3, 2, 1, 0]), palette=pal))

# --- TGA ----------------------------------------------------------------------------------------
def tga(w, h, itype, bpp, body, cmap=b"", cmap_len=0, desc=0):
    hdr = struct.pack("<BBBHHBHHHHBB", 0, 1 if cmap else 0, itype, 0, cmap_len, 24 if cmap else 0, 0, 0, w, h, bpp, desc)
    return hdr + cmap + body


put("image_loader", "rgb24.tga", tga(3, 2, 2, 24, bytes(pixels(3, 2, 3))))
put("image_loader", "gray8_topleft.tga", tga(3, 3, 3, 8, bytes(pixels(3, 3, 1)), desc=0x20))
# RLE: a run packet (3 equal pixels) then a raw packet of 3
put("image_loader", "rgba32_rle.tga", tga(3, 2, 10, 32, bytes([0x82, 10, 20, 30, 255, 0x02]) + bytes(pixels(3, 1, 4))))
put("image_loader", "cmap8.tga", tga(2, 2, 1, 8, bytes([0, 1, 2, 1]), cmap=bytes(pixels(3, 1, 3)), cmap_len=3))

# --- GIF ----------------------------------------------------------------------------------------
def gif_lzw(indices, min_code=2):
    """LZW with a clear code before every second literal, so the code width stays min_code + 1."""
    clear, end, width = 1 << min_code, (1 << min_code) + 1, min_code + 1
    codes = []
    for i, v in enumerate(indices):
        if i % 2 == 0:
            codes.append(clear)
        codes.append(v)
    codes.append(end)
    acc = nbits = 0
    data = bytearray()
    for c in codes:
        acc |= c << nbits
        nbits += width
        while nbits >= 8:
            data.append(acc & 255)
            acc >>= 8
            nbits -= 8
    if nbits:
        data.append(acc & 255)
    blocks = b"".join(bytes([len(data[i:i + 255])]) + bytes(data[i:i + 255]) for i in range(0, len(data), 255))
    return bytes([min_code]) + blocks + b"\x00"


w, h = 4, 3
gct = bytes(pixels(4, 1, 3))
idx = [(x + y) % 4 for y in range(h) for x in range(w)]
gce = b"\x21\xf9\x04\x01\x00\x00\x02\x00"  # graphic control: colour 2 transparent
img = b"\x2c" + struct.pack("<HHHHB", 0, 0, w, h, 0) + gif_lzw(idx)
put("image_loader", "gct4.gif", b"GIF89a" + struct.pack("<HHBBB", w, h, 0x81, 0, 0) + gct + gce + img + b"\x3b")
lct_img = b"\x2c" + struct.pack("<HHHHB", 0, 0, w, h, 0x81) + gct + gif_lzw(idx)
put("image_loader", "lct4.gif", b"GIF87a" + struct.pack("<HHBBB", w, h, 0, 0, 0) + lct_img + b"\x3b")

# --- PSD ----------------------------------------------------------------------------------------
def psd(w, h, channels, depth, planes, rle=False):
    hdr = b"8BPS" + struct.pack(">H6xHIIHH", 1, channels, h, w, depth, 3) + struct.pack(">III", 0, 0, 0)
    if not rle:
        return hdr + struct.pack(">H", 0) + b"".join(planes)
    # PackBits: one literal run per row
    bpr = w * depth // 8
    rows = [p[y * bpr:(y + 1) * bpr] for p in planes for y in range(h)]
    packed = [bytes([len(r) - 1]) + r for r in rows]
    return hdr + struct.pack(">H", 1) + b"".join(struct.pack(">H", len(p)) for p in packed) + b"".join(packed)


s = pixels(3, 2, 3)
planes8 = [bytes(s[k::3]) for k in range(3)]
put("image_loader", "rgb8.psd", psd(3, 2, 3, 8, planes8))
put("image_loader", "rgb8_rle.psd", psd(3, 2, 3, 8, planes8, rle=True))
s16 = pixels(2, 2, 4, 65535)
put("image_loader", "rgba16.psd", psd(2, 2, 4, 16, [b"".join(struct.pack(">H", v) for v in s16[k::4]) for k in range(4)]))

# --- HDR (Radiance RGBE) ------------------------------------------------------------------------
def rgbe(w, h):
    return [bytes([(x * 40) % 256, (y * 70) % 256, 128, 128 + (x + y) % 3]) for y in range(h) for x in range(w)]


hdr_head = b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n"
put("image_loader", "flat.hdr", hdr_head + b"-Y 2 +X 3\n" + b"".join(rgbe(3, 2)))
# New-style RLE scanlines (width 8..32767): 2 2 hi lo, then per component a dump and a run
w = 10
rle = bytearray()
for y in range(2):
    rle += bytes([2, 2, w >> 8, w & 255])
    for k in range(4):
        rle += bytes([5]) + bytes((x * 20 + k * 7 + y) % 256 for x in range(5))  # dump of 5
        rle += bytes([128 + 5, 100 + k])  # run of 5
put("image_loader", "rle.hdr", hdr_head + b"-Y 2 +X 10\n" + bytes(rle))

# --- Softimage PIC ------------------------------------------------------------------------------
def pic(w, h):
    head = b"\x53\x80\xf6\x34" + struct.pack(">f", 3.71) + b"seed".ljust(80, b"\0") + b"PICT"
    head += struct.pack(">HHfHH", w, h, 1.0, 3, 0)
    packet = bytes([0, 8, 0, 0xF0])  # last packet, 8 bits, uncompressed, R G B A
    return head + packet + bytes(pixels(w, h, 4))


put("image_loader", "rgba.pic", pic(3, 2))

# --- JPEG (cjpeg) -------------------------------------------------------------------------------
cjpeg = shutil.which("cjpeg")
if cjpeg:
    with tempfile.TemporaryDirectory() as tmp:
        ppm = os.path.join(tmp, "in.ppm")
        pgm = os.path.join(tmp, "in.pgm")
        with open(ppm, "wb") as f:
            f.write(b"P6 17 9 255\n" + bytes(pixels(17, 9, 3)))
        with open(pgm, "wb") as f:
            f.write(b"P5 8 8 255\n" + bytes(pixels(8, 8, 1)))
        for name, args, src in (("baseline.jpg", ["-quality", "75"], ppm),
                                ("progressive.jpg", ["-progressive"], ppm),
                                ("subsample_h2v2_restart.jpg", ["-sample", "2x2", "-restart", "1"], ppm),
                                ("gray.jpg", [], pgm),
                                ("arithmetic_unsupported.jpg", ["-arithmetic"], pgm)):
            data = subprocess.run([cjpeg, *args, src], check=True, capture_output=True).stdout
            put("image_loader", name, data)
else:
    print("make_seeds: cjpeg not found (apt-get install libjpeg-turbo-progs); JPEG seeds not written")

# --- NPY ----------------------------------------------------------------------------------------
def npy(descr, shape, payload, version=1, fortran=False):
    d = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape)
    pre = 10 if version == 1 else 12
    d = d + " " * (-(pre + len(d) + 1) % 64) + "\n"
    lenfield = struct.pack("<H", len(d)) if version == 1 else struct.pack("<I", len(d))
    return b"\x93NUMPY" + bytes([version, 0]) + lenfield + d.encode() + payload


put("npy", "f4_3x2.npy", npy("<f4", "(3, 2)", struct.pack("<6f", 0, 1, -2.5, 3e-3, 1e30, -0.0)))
put("npy", "c8_2x2.npy", npy("<c8", "(2, 2)", struct.pack("<8f", 1, 0, 0, 1, -1, 0, 0.5, -0.5)))
put("npy", "f4_1x1_v2.npy", npy("<f4", "(1, 1)", struct.pack("<f", 42.0), version=2))
put("npy", "f4_1x4_v3.npy", npy("<f4", "(1, 4)", struct.pack("<4f", 1, 2, 3, 4), version=3))

# --- GUI settings -------------------------------------------------------------------------------
put("settings", "settings.ini",
    b"# fftscope GUI settings\nui_scale=1.500000\ntheme=light\nrecent=/tmp/a.png\nrecent=/home/u/b c.jpg\n")
put("settings", "dark.ini", b"theme=dark\nui_scale=2\n")
print("make_seeds: wrote", {k: len(os.listdir(v)) for k, v in out.items()})
