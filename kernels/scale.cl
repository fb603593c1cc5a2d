// scale.cl — multiplies `count` float2 values by a real factor (the 1/n of an inverse axis).
//
// Data layout: float2 (interleaved re/im), any order. Defines needed: none beyond complex.cl.

#ifndef FFTSCOPE_COMPLEX_CL
#error "scale.cl needs complex.cl prepended"
#endif

kernel void scale(global float2* data, uint count, float factor) {
  const uint i = get_global_id(0);
  if (i < count) data[i] *= factor;
}
