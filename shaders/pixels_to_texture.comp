// pixels_to_texture.comp — copies a W x H RGBA8 display (one packed uint per pixel, row-major,
// as the fast display rows store it: fast_epilogue.glsl) into an RGBA8 2D texture.
// Each group stores a 16 x 16 tile: NVIDIA's textures are block-linear (64 bytes x 8 rows), which
// takes tiles at the speed of a buffer where rows of pixels went at about 60 % of it
// (docs/fast_path.md); on the H100 this takes 74-162 us at 4096^2, where a pixel-unpack upload
// or a texture-to-texture copy took 1.3 ms. On llvmpipe the upload is faster:
// GlFastDisplay::copy_to_texture times both.
//
// Buffers: binding 0 pixels (uint, packUnorm4x8 order). Image unit 0: the rgba8 target.
// Uniforms: u_width, u_height. Defines: none besides the local_size layout line the host prepends
// (16 x 16).

layout(std430, binding = 0) readonly buffer Pixels { uint pixels[]; };
layout(rgba8, binding = 0) writeonly uniform image2D u_image;

uniform uint u_width;
uniform uint u_height;

void main() {
  uvec2 p = gl_GlobalInvocationID.xy;
  if (p.x >= u_width || p.y >= u_height) return;
  imageStore(u_image, ivec2(p), unpackUnorm4x8(pixels[p.y * u_width + p.x]));
}
