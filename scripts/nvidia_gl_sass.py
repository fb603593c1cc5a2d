#!/usr/bin/env python3
"""Disassembles the machine code NVIDIA's OpenGL driver keeps in its shader disk cache, so GL's
compute programs can be read as SASS beside OpenCL's (whose PTX ptxas turns into SASS).

glGetProgramBinary on NVIDIA returns only its assembly text, which comes before register
allocation and scheduling. The disk cache (~/.cache/nvidia/GLCache/<app>/<hash>/*.toc + .bin)
holds, per program, a zstd frame whose content is an "NVuc" container: a table of 32-byte
sections, type 1 the SASS, the register count in the 16 bytes before it. Layout read off
driver 580 (2026-11-27); an entry that does not parse is skipped. Needs the zstd command (where
there is none, carry Debian's /usr/bin/zstd and put it on PATH) and CUDA's nvdisasm (on the GPU
machine: /usr/local/cuda/bin).

    rm -rf ~/.cache/nvidia && fast_probe_gl --runs 3 4096x4096      # one program per pass
    python3 scripts/nvidia_gl_sass.py ~/.cache/nvidia /tmp/sass       # writes NAME.sass, prints counts

A line per program: instructions, registers, barriers, MEMBARs, shared and global accesses by
their modifiers (docs/fast_path.md, twenty-eighth session: NVIDIA's GL makes every storage
buffer access LDG/STG .STRONG.SM behind a bounds check, and memoryBarrierShared() a
MEMBAR.SC.CTA before each BAR.SYNC).
"""
import collections
import glob
import os
import re
import shutil
import struct
import subprocess
import sys

ZSTD_MAGIC = bytes.fromhex("28b52ffd")
TOC_HEADER, TOC_ENTRY = 0x30, 0x20  # .toc: a header, then (offset, size, hash, kind) per entry
SECTION_TABLE, SECTION_ENTRY, SECTION_SASS = 0x20, 0x20, 1


def sass_sections(cache_dir):
    """(name, registers, code bytes) for each program's machine code under cache_dir."""
    for toc_path in sorted(glob.glob(os.path.join(cache_dir, "**", "*.toc"), recursive=True)):
        toc = open(toc_path, "rb").read()
        blobs = open(toc_path[:-4] + ".bin", "rb").read()
        for i in range((len(toc) - TOC_HEADER) // TOC_ENTRY):
            offset, size = struct.unpack_from("<QQ", toc, TOC_HEADER + i * TOC_ENTRY)
            start = blobs.find(ZSTD_MAGIC, offset, offset + min(size, 64))
            if start < 0:
                continue  # the program's assembly text or a small record, not machine code
            # The frame runs past the entry's recorded size; zstd stops at the frame's end.
            content = subprocess.run(["zstd", "-d", "-c", "-q"], input=blobs[start:], capture_output=True).stdout
            if not content.startswith(b"NVuc"):
                continue
            for table in range(SECTION_TABLE, min(len(content), 0x400), SECTION_ENTRY):
                kind, length, where = struct.unpack_from("<III", content, table)
                if kind == SECTION_SASS and 0x10 <= where and where + length <= len(content):
                    registers = struct.unpack_from("<I", content, where - 0x10)[0]
                    name = os.path.basename(toc_path)[:8] + "_" + str(i)
                    yield name, registers, content[where:where + length]
                    break


# nvdisasm prints each address in at least 4 hex digits: past 0xfff0 (4 096 instructions) in more.
INSTRUCTION = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[0-9T]\s+)?([A-Z0-9_.]+)")


def opcodes(sass):
    """The opcode (with its modifiers) of every instruction in nvdisasm's text, predicates dropped."""
    return INSTRUCTION.findall(sass)


def summary(name, registers, ops):
    """One line: instructions, registers, barriers, shared and global accesses by their modifiers."""
    base = collections.Counter(op.split(".")[0] for op in ops)
    memory = collections.Counter(op for op in ops if op.split(".")[0] in ("LDG", "STG", "MEMBAR", "TLD", "SUST"))
    return (f"{name}: {len(ops)} instructions, {registers} registers, BAR {base['BAR']}, LDS {base['LDS']}, "
            f"STS {base['STS']}, ISETP {base['ISETP']}, CS2R {base['CS2R']}, "
            + ", ".join(f"{op} {n}" for op, n in sorted(memory.items())))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: nvidia_gl_sass.py CACHE_DIR OUT_DIR")
    cache_dir, out_dir = sys.argv[1], sys.argv[2]
    nvdisasm = shutil.which("nvdisasm") or "/usr/local/cuda/bin/nvdisasm"
    if not shutil.which("zstd") or not os.path.exists(nvdisasm):
        sys.exit("nvidia_gl_sass.py: needs zstd and nvdisasm")
    os.makedirs(out_dir, exist_ok=True)
    found = 0
    for name, registers, code in sass_sections(cache_dir):
        code_path = os.path.join(out_dir, name + ".bin")
        with open(code_path, "wb") as f:
            f.write(code)
        sass = subprocess.run([nvdisasm, "-b", "SM90", code_path], capture_output=True, text=True).stdout
        with open(os.path.join(out_dir, name + ".sass"), "w") as f:
            f.write(sass)
        print(summary(name, registers, opcodes(sass)))
        found += 1
    if found == 0:
        sys.exit(f"nvidia_gl_sass.py: no machine code found under {cache_dir}")


if __name__ == "__main__":
    main()
