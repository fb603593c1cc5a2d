#!/usr/bin/env python3
"""Copies shaders/ to DIR with fast_fft.comp wrapped so that invocation 0 of each work-group
records its multiprocessor (gl_SMIDNV), start and end clock (clock2x32ARB) and its dispatch's
group count at binding 7, for fast_probe_gl's FFTSCOPE_GL_RESIDENCY (NVIDIA only: it needs
GL_NV_shader_thread_group). Run from the repository root:

    python3 scripts/gl_residency_shaders.py /tmp/sh-resid
    FFTSCOPE_GL_RESIDENCY=1 FFTSCOPE_SHADER_DIR=/tmp/sh-resid fast_probe_gl --runs 10 4096x4096
"""
import shutil, sys
if len(sys.argv) != 2:
    sys.exit('usage: gl_residency_shaders.py DIR')
dst = sys.argv[1]
shutil.copytree('shaders', dst, dirs_exist_ok=True)
p = dst + '/fast_fft.comp'
s = open(p).read()
s = '#extension GL_ARB_shader_clock : require\n#extension GL_NV_shader_thread_group : require\n' + s
s = s.replace('void main() {', 'void fft_main() {', 1)
s += '''
layout(std430, binding = 7) buffer Residency { uint rec[]; };
void main() {
  uint slot = 0u;
  if (gl_LocalInvocationIndex == 0u) {
    slot = atomicAdd(rec[0], 1u);
    rec[4u + 4u * slot] = gl_SMIDNV;
    rec[5u + 4u * slot] = clock2x32ARB().x;
    rec[7u + 4u * slot] = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
  }
  fft_main();
  if (gl_LocalInvocationIndex == 0u) rec[6u + 4u * slot] = clock2x32ARB().x;
}
'''
open(p, 'w').write(s)
