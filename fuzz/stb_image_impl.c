// The stb_image decoder, compiled into the fuzz targets with the fuzzer's instrumentation (the
// Debian libstb.a / libstb.so objects are not instrumented, so coverage would stop at its door).
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
