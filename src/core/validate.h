#pragma once
// Checks on data before and after a transform: non-finite values (reported, never propagated
// silently) and the memory a transform would need (refused before any device allocation).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "types.h"

namespace fftscope {

/// Where an array holds NaN or infinity: how many elements, and the first one (row-major order).
struct NonFiniteReport {
  std::size_t count = 0;
  std::size_t first_x = 0;
  std::size_t first_y = 0;
  bool has_nan = false;  ///< at least one NaN (otherwise only infinities)
};

/// Scans every element (both parts of a complex one); nullopt when all are finite.
std::optional<NonFiniteReport> find_non_finite(const ComplexImage& image);
std::optional<NonFiniteReport> find_non_finite(const RealImage& image);

/// Throws InputError "'name': <what> has N non-finite values (NaN|infinity), the first at (x, y)"
/// when the image holds any; `what` names the array ("the image", "the spectrum").
void check_finite(const ComplexImage& image, const std::string& name, const std::string& what);
void check_finite(const RealImage& image, const std::string& name, const std::string& what);

/// The memory one width x height complex float32 transform needs on a device, in bytes, as an
/// upper bound over the backends: the data buffer and a ping-pong buffer (8 bytes per element
/// each), a scratch buffer for the column pass, the RGBA8 display texture, and per axis the
/// index and twiddle tables plus Bluestein's convolution buffers where the plan uses them, and
/// the fast path's Bluestein scratch and tables for axes it cannot take directly (a prime factor
/// above 13): L x lines with L bounded by the power of two >= 2n - 1.
struct MemoryEstimate {
  std::uint64_t bytes = 0;
  std::uint64_t buffers = 0;    ///< the three full-size complex buffers and the display texture
  std::uint64_t tables = 0;     ///< digit-reverse and twiddle tables, both axes
  std::uint64_t bluestein = 0;  ///< Bluestein convolution buffers, both axes and both paths (0 if unused)
  /// The fast path's four-step columns (fast::AxisRoute::second): the image-sized scratch beyond
  /// what a Bluestein scratch already holds (they share one), and the passes' tables (0 if unused)
  std::uint64_t four_step = 0;
  std::uint64_t largest_buffer = 0;  ///< the largest single buffer: a complex image, or a scratch
};
/// Throws UsageError for a zero size.
MemoryEstimate estimate_transform_memory(std::size_t width, std::size_t height);

/// The configured device memory limit in bytes: the FFTSCOPE_MEMORY_LIMIT_MB environment
/// variable (MiB), or 0 (no limit) when unset. Throws UsageError for a value that is not a
/// positive integer.
std::uint64_t configured_memory_limit();

/// Throws InputError "'name': a W x H transform needs X MiB of device memory, more than the
/// <limit_source> limit of Y MiB" when the estimate exceeds limit_bytes (0: no limit).
/// `limit_source` says where the limit comes from ("device's", "FFTSCOPE_MEMORY_LIMIT_MB").
void check_memory_limit(std::size_t width, std::size_t height, std::uint64_t limit_bytes, const std::string& name,
                        const std::string& limit_source);

/// What a device offers, in bytes (0: unknown, not checked), and where each figure comes from.
struct DeviceMemoryLimit {
  std::uint64_t total = 0;           ///< memory a transform may use in all
  std::uint64_t max_allocation = 0;  ///< the largest single buffer the API allows
  std::string total_source;          ///< e.g. "CL_DEVICE_GLOBAL_MEM_SIZE", "physical RAM"
  std::string allocation_source;     ///< e.g. "CL_DEVICE_MAX_MEM_ALLOC_SIZE"
};

/// Throws InputError naming `name` when a width x height transform needs a buffer larger than
/// limit.max_allocation ("... needs a 4.0 GiB buffer, more than the device's largest allocation
/// of ...") or more memory in all than limit.total ("... needs X of device memory, more than the
/// device's limit of Y (<source>)"). A zero figure is not checked.
void check_device_memory(std::size_t width, std::size_t height, const DeviceMemoryLimit& limit,
                         const std::string& name);

/// The machine's physical RAM in bytes (sysconf), 0 when unknown: the limit of the CPU backend
/// and of GL drivers that report no memory figure (llvmpipe).
std::uint64_t physical_memory_bytes();

/// A byte count for messages: "1.5 GiB", "12.0 MiB", "512 bytes".
std::string format_bytes(std::uint64_t bytes);

}  // namespace fftscope
