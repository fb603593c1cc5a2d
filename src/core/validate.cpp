#include "validate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <utility>
#include <unistd.h>

#include "errors.h"
#include "fast_plan.h"
#include "plan.h"

namespace fftscope {
namespace detail {
namespace {

template <typename Image, typename IsFinite, typename IsNan>
std::optional<NonFiniteReport> scan(const Image& image, IsFinite is_finite, IsNan is_nan) {
  NonFiniteReport report;
  for (std::size_t i = 0; i < image.data.size(); ++i) {
    if (is_finite(image.data[i])) continue;
    if (report.count++ == 0) {
      report.first_x = image.width ? i % image.width : 0;
      report.first_y = image.width ? i / image.width : 0;
    }
    report.has_nan = report.has_nan || is_nan(image.data[i]);
  }
  if (report.count == 0) return std::nullopt;
  return report;
}

void throw_non_finite(const NonFiniteReport& r, const std::string& name, const std::string& what) {
  throw InputError("'" + name + "': " + what + " has " + std::to_string(r.count) + " non-finite value" +
                   (r.count == 1 ? "" : "s") + (r.has_nan ? " (NaN)" : " (infinity)") + ", the first at (x " +
                   std::to_string(r.first_x) + ", y " + std::to_string(r.first_y) + ")");
}

// Per axis of length n transformed `lines` times: the tables, and Bluestein's buffers.
void add_axis(std::size_t n, std::size_t lines, MemoryEstimate& e) {
  const Plan1D plan = make_plan(n);
  // digit-reverse (u32) plus one complex float twiddle per element per stage
  e.tables += 4ull * n + 8ull * n * plan.stages.size();
  for (const RadixStage& stage : plan.stages) {
    if (stage.kind != StageKind::bluestein) continue;
    const std::uint64_t butterflies = n / stage.radix;
    // the padded input and its spectrum for every butterfly of every line, plus the filter
    e.bluestein += 2ull * 8ull * stage.bluestein.m * butterflies * lines + 8ull * stage.bluestein.m;
    e.largest_buffer = std::max<std::uint64_t>(e.largest_buffer, 8ull * stage.bluestein.m * butterflies * lines);
  }
}

// Whether either backend's default tuning routes n-point lines over `lines` lines, on one of
// `axes`, so that `taken` holds (fast::route_axis with 48 KiB of local memory).
bool fast_route_takes(std::size_t n, std::size_t lines, std::initializer_list<Axis> axes,
                      bool (fast::AxisRoute::*taken)() const) {
  constexpr std::size_t most = std::numeric_limits<std::uint32_t>::max();
  if (n < 2 || n > most || lines > most) return false;
  for (const fast::Tuning& tuning : {fast::Tuning{}, fast::gl_default_tuning()})
    for (const Axis axis : axes) {
      const auto route = fast::route_axis(axis, static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(lines),
                                          fast::DeviceLimits{}, tuning);
      if (route && ((*route).*taken)()) return true;
    }
  return false;
}

// Whether the fast path (core/fast_plan.h, issue 6) takes an axis of n points over `lines`
// lines through Bluestein: no direct layout fits 48 KiB of local memory (a prime factor above
// 13, too many stages, no split that fits) but a padded one does. Its padded length L is at
// most fast::bluestein_length_bound(n), which the estimate below counts.
bool fast_path_bluestein(std::size_t n, std::size_t lines) {
  return fast_route_takes(n, lines, {Axis::rows, Axis::cols}, &fast::AxisRoute::bluestein);
}

// The fast path's Bluestein memory: one scratch of L x lines shared by the axes that need it,
// and per such axis its chirp (n values), filter and L-point twiddle table (L values each).
std::uint64_t add_fast_bluestein(std::size_t width, std::size_t height, MemoryEstimate& e) {
  std::uint64_t scratch = 0;
  for (const auto& [n, lines] : {std::pair{width, height}, std::pair{height, width}}) {
    if (!fast_path_bluestein(n, lines)) continue;
    const std::uint64_t l = fast::bluestein_length_bound(n);
    scratch = std::max<std::uint64_t>(scratch, 8ull * l * lines);
    e.bluestein += 8ull * n + 16ull * l;
  }
  e.bluestein += scratch;
  e.largest_buffer = std::max(e.largest_buffer, scratch);
  return scratch;
}

// The fast path's four-step columns (either backend's default tuning): an image-sized scratch,
// shared with a Bluestein one (`shared` bytes), and the passes' twiddle tables (a + b + height
// values, a + b <= height + 1).
void add_fast_four_step(std::size_t width, std::size_t height, std::uint64_t shared, MemoryEstimate& e) {
  if (!fast_route_takes(height, width, {Axis::cols}, &fast::AxisRoute::four_step)) return;
  const std::uint64_t scratch = 8ull * width * height;
  e.four_step = (scratch > shared ? scratch - shared : 0) + 16ull * (height + 1);
  e.largest_buffer = std::max(e.largest_buffer, scratch);
}

}  // namespace
}  // namespace detail

std::optional<NonFiniteReport> find_non_finite(const ComplexImage& image) {
  return detail::scan(
      image, [](const Complex& v) { return std::isfinite(v.real()) && std::isfinite(v.imag()); },
      [](const Complex& v) { return std::isnan(v.real()) || std::isnan(v.imag()); });
}

std::optional<NonFiniteReport> find_non_finite(const RealImage& image) {
  return detail::scan(
      image, [](float v) { return std::isfinite(v); }, [](float v) { return std::isnan(v); });
}

void check_finite(const ComplexImage& image, const std::string& name, const std::string& what) {
  if (const auto r = find_non_finite(image)) detail::throw_non_finite(*r, name, what);
}

void check_finite(const RealImage& image, const std::string& name, const std::string& what) {
  if (const auto r = find_non_finite(image)) detail::throw_non_finite(*r, name, what);
}

MemoryEstimate estimate_transform_memory(std::size_t width, std::size_t height) {
  if (width == 0 || height == 0) throw UsageError("a transform needs a non-zero width and height");
  MemoryEstimate e;
  const std::uint64_t elements = static_cast<std::uint64_t>(width) * height;
  e.buffers = 3ull * 8ull * elements + 4ull * elements;
  e.largest_buffer = 8ull * elements;
  detail::add_axis(width, height, e);
  detail::add_axis(height, width, e);
  const std::uint64_t bluestein_scratch = detail::add_fast_bluestein(width, height, e);
  detail::add_fast_four_step(width, height, bluestein_scratch, e);
  e.bytes = e.buffers + e.tables + e.bluestein + e.four_step;
  return e;
}

std::uint64_t configured_memory_limit() {
  const char* text = std::getenv("FFTSCOPE_MEMORY_LIMIT_MB");
  if (!text || !*text) return 0;
  char* end = nullptr;
  const unsigned long long mib = std::strtoull(text, &end, 10);
  if (*end != '\0' || text[0] == '-' || mib == 0 || mib > (1ull << 40))
    throw UsageError(std::string("FFTSCOPE_MEMORY_LIMIT_MB='") + text + "' is not a positive number of MiB");
  return static_cast<std::uint64_t>(mib) << 20;
}

void check_memory_limit(std::size_t width, std::size_t height, std::uint64_t limit_bytes, const std::string& name,
                        const std::string& limit_source) {
  if (limit_bytes == 0) return;
  const MemoryEstimate e = estimate_transform_memory(width, height);
  if (e.bytes <= limit_bytes) return;
  throw InputError("'" + name + "': a " + std::to_string(width) + " x " + std::to_string(height) + " transform needs " +
                   format_bytes(e.bytes) + " of device memory, more than the " + limit_source + " limit of " +
                   format_bytes(limit_bytes));
}

namespace detail {
namespace {
// Two sizes that format alike ("4.0 GiB" and "4.0 GiB") get their exact byte counts as well.
std::pair<std::string, std::string> format_pair(std::uint64_t needed, std::uint64_t limit) {
  std::string a = format_bytes(needed), b = format_bytes(limit);
  if (a == b) {
    a += " (" + std::to_string(needed) + " bytes)";
    b += " (" + std::to_string(limit) + " bytes)";
  }
  return {a, b};
}
}  // namespace
}  // namespace detail

void check_device_memory(std::size_t width, std::size_t height, const DeviceMemoryLimit& limit,
                         const std::string& name) {
  if (limit.total == 0 && limit.max_allocation == 0) return;
  const MemoryEstimate e = estimate_transform_memory(width, height);
  const std::string transform = "'" + name + "': a " + std::to_string(width) + " x " + std::to_string(height) +
                                " transform needs ";
  auto source = [](const std::string& s) { return s.empty() ? std::string() : " (" + s + ")"; };
  if (limit.max_allocation != 0 && e.largest_buffer > limit.max_allocation) {
    const auto [needed, allowed] = detail::format_pair(e.largest_buffer, limit.max_allocation);
    throw InputError(transform + "a " + needed + " buffer, more than the device's largest allocation of " + allowed +
                     source(limit.allocation_source));
  }
  if (limit.total != 0 && e.bytes > limit.total) {
    const auto [needed, allowed] = detail::format_pair(e.bytes, limit.total);
    throw InputError(transform + needed + " of device memory, more than the device's limit of " + allowed +
                     source(limit.total_source));
  }
}

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
}

std::string format_bytes(std::uint64_t bytes) {
  char text[64];
  if (bytes >= (1ull << 30)) {
    std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / static_cast<double>(1ull << 30));
  } else if (bytes >= (1ull << 20)) {
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / static_cast<double>(1ull << 20));
  } else {
    std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
  }
  return text;
}

}  // namespace fftscope
