// NPY reading and writing: byte-exact against numpy's own output, round trips, and every way a
// file can be malformed.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/errors.h"
#include "core/image_io.h"

namespace fftscope {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

// What numpy 2.x `np.save` writes for a header dict (format 1.0, padded to 64 bytes).
Bytes numpy_header(const std::string& dict) {
  std::string padded = dict;
  padded.append(127 - 10 - dict.size(), ' ');
  padded += '\n';
  Bytes out = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, static_cast<std::uint8_t>(padded.size()), 0};
  for (char c : padded) out.push_back(static_cast<std::uint8_t>(c));  // (insert trips a GCC 12 -Warray-bounds false positive)
  return out;
}

Bytes append(Bytes a, const Bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Header of any version with any dict text, followed by `data_bytes` zero bytes.
Bytes npy_with(const std::string& dict, std::size_t data_bytes, std::uint8_t major = 1) {
  Bytes out = {0x93, 'N', 'U', 'M', 'P', 'Y', major, 0};
  const std::string text = dict + "\n";
  if (major == 1) {
    out.push_back(static_cast<std::uint8_t>(text.size()));
    out.push_back(static_cast<std::uint8_t>(text.size() >> 8));
  } else {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(text.size() >> (8 * i)));
  }
  out.insert(out.end(), text.begin(), text.end());
  out.insert(out.end(), data_bytes, 0);
  return out;
}

TEST(Npy, EncodesExactlyLikeNumpy) {
  // Bytes of np.save(np.array([[1.5, -2.0]], dtype='<f4')) and of
  // np.save(np.array([[1+2j], [-0.5-0.25j]], dtype='<c8')), numpy 2.4.
  RealImage real(2, 1);
  real.data = {1.5f, -2.0f};
  EXPECT_EQ(encode_npy_float32(real),
            append(numpy_header("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }"),
                   {0x00, 0x00, 0xc0, 0x3f, 0x00, 0x00, 0x00, 0xc0}));
  ComplexImage c(1, 2);
  c.data = {Complex(1, 2), Complex(-0.5f, -0.25f)};
  EXPECT_EQ(encode_npy_complex64(c),
            append(numpy_header("{'descr': '<c8', 'fortran_order': False, 'shape': (2, 1), }"),
                   {0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0xbf, 0x00, 0x00, 0x80, 0xbe}));
}

TEST(Npy, RoundTrips) {
  for (auto [w, h] : {std::pair<std::size_t, std::size_t>{1, 1}, {3, 5}, {64, 1}, {1, 33}, {300, 200}}) {
    ComplexImage c(w, h);
    RealImage r(w, h);
    for (std::size_t i = 0; i < c.data.size(); ++i) {
      c.data[i] = Complex(std::sin(static_cast<float>(i)) * 1e3f, -1.0f / static_cast<float>(i + 1));
      r.data[i] = std::cos(static_cast<float>(i)) * 1e-30f;
    }
    const NpyArray ca = parse_npy(encode_npy_complex64(c), "c.npy");
    EXPECT_TRUE(ca.is_complex);
    EXPECT_EQ(ca.width, w);
    EXPECT_EQ(ca.height, h);
    EXPECT_EQ(ca.values.data, c.data);
    EXPECT_EQ((encode_npy_complex64(c).size() - 8 * w * h) % 64, 0u);  // header padded to 64 like numpy's
    const NpyArray ra = parse_npy(encode_npy_float32(r), "r.npy");
    EXPECT_FALSE(ra.is_complex);
    ASSERT_EQ(ra.values.data.size(), r.data.size());
    for (std::size_t i = 0; i < r.data.size(); ++i) EXPECT_EQ(ra.values.data[i], Complex(r.data[i], 0));
  }
}

TEST(Npy, AcceptsNumpyVariants) {
  // Double quotes, no trailing comma, other key order, version 2 and 3 headers, extra spaces.
  const std::string dicts[] = {
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
      "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (2, 3)}",
      "{'shape': (2,3), 'fortran_order': False, 'descr': '<f4'}",
      "{ 'descr' : '<f4' , 'fortran_order' : False , 'shape' : ( 2 , 3 , ) , }",
  };
  for (const auto& d : dicts) {
    const NpyArray a = parse_npy(npy_with(d, 24), "v.npy");
    EXPECT_EQ(a.width, 3u) << d;
    EXPECT_EQ(a.height, 2u) << d;
  }
  EXPECT_EQ(parse_npy(npy_with(dicts[0], 24, 2), "v2.npy").width, 3u);
  EXPECT_EQ(parse_npy(npy_with(dicts[0], 24, 3), "v3.npy").width, 3u);
}

// Expects parse_npy to refuse with a one-line message naming the file and containing `reason`.
void expect_refused(const Bytes& bytes, const std::string& reason, std::size_t max_elements = default_max_pixels) {
  try {
    parse_npy(bytes, "bad.npy", max_elements);
    ADD_FAILURE() << "accepted; expected: " << reason;
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'bad.npy'"), std::string::npos) << msg;
    EXPECT_NE(msg.find(reason), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

std::string dict(const std::string& descr, const std::string& fortran, const std::string& shape) {
  return "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
}

TEST(Npy, RefusesMalformedFiles) {
  const Bytes good = npy_with(dict("<f4", "False", "(2, 3)"), 24);
  ASSERT_NO_THROW(parse_npy(good, "good.npy"));

  expect_refused({}, "no NPY magic");
  expect_refused(Bytes(good.begin(), good.begin() + 9), "no NPY magic");
  Bytes magic = good;
  magic[1] = 'n';
  expect_refused(magic, "no NPY magic");
  Bytes version = good;
  version[6] = 4;
  expect_refused(version, "unsupported format version 4.0");
  expect_refused(Bytes(good.begin(), good.begin() + 40), "file ends inside the header");
  Bytes huge_len = npy_with(dict("<f4", "False", "(2, 3)"), 24, 2);
  huge_len[8] = huge_len[9] = huge_len[10] = huge_len[11] = 0xff;
  expect_refused(huge_len, "implausibly large");

  expect_refused(npy_with(dict(">f4", "False", "(2, 3)"), 24), "dtype '>f4' is not supported");
  expect_refused(npy_with(dict("<f8", "False", "(2, 3)"), 48), "dtype '<f8' is not supported");
  expect_refused(npy_with(dict("<c16", "False", "(2, 3)"), 96), "dtype '<c16' is not supported");
  expect_refused(npy_with(dict("<i4", "False", "(2, 3)"), 24), "dtype '<i4' is not supported");
  expect_refused(npy_with(dict("<f4", "True", "(2, 3)"), 24), "Fortran-order");
  expect_refused(npy_with(dict("<f4", "false", "(2, 3)"), 24), "not True or False");
  expect_refused(npy_with(dict("<f4", "False", "(6,)"), 24), "1 dimensions; need a 2D array");
  expect_refused(npy_with(dict("<f4", "False", "(1, 2, 3)"), 24), "3 dimensions; need a 2D array");
  expect_refused(npy_with(dict("<f4", "False", "()"), 4), "0 dimensions");
  expect_refused(npy_with(dict("<f4", "False", "(0, 3)"), 0), "zero dimension");
  expect_refused(npy_with(dict("<f4", "False", "(3, 0)"), 0), "zero dimension");
  expect_refused(npy_with(dict("<f4", "False", "(2, -3)"), 24), "not a tuple of non-negative integers");
  expect_refused(npy_with(dict("<f4", "False", "(2, 3.0)"), 24), "not a tuple of integers");
  expect_refused(npy_with(dict("<f4", "False", "[2, 3]"), 24), "expected '('");
  expect_refused(npy_with(dict("<f4", "False", "(2, 3)"), 23), "data is truncated (23 of 24 bytes)");
  expect_refused(npy_with(dict("<c8", "False", "(2, 3)"), 24), "data is truncated (24 of 48 bytes)");
  expect_refused(npy_with(dict("<f4", "False", "(2, 3)"), 25), "1 bytes of extra data");
  expect_refused(npy_with(dict("<f4", "False", "(100000, 100000)"), 0), "over the limit of 67108864 elements");
  expect_refused(npy_with(dict("<f4", "False", "(4294967296, 4294967296)"), 0), "over the limit");
  expect_refused(npy_with(dict("<f4", "False", "(99999999999999999999999, 1)"), 0), "too large");
  expect_refused(npy_with(dict("<f4", "False", "(4, 4)"), 64), "over the limit of 15 elements", 15);

  expect_refused(npy_with("{'descr': '<f4', 'shape': (2, 3), }", 24), "no 'fortran_order'");
  expect_refused(npy_with("{'fortran_order': False, 'shape': (2, 3), }", 24), "no 'descr'");
  expect_refused(npy_with("{'descr': '<f4', 'fortran_order': False}", 24), "no 'shape'");
  expect_refused(npy_with("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)}", 24), "'descr' twice");
  expect_refused(npy_with("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'extra': 1}", 24), "unexpected key 'extra'");
  expect_refused(npy_with("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)} x", 24), "trailing characters");
  expect_refused(npy_with("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)", 24), "malformed");
  expect_refused(npy_with("{'descr: '<f4'}", 24), "malformed");
  expect_refused(npy_with("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)}\x01", 24), "not plain text");
  expect_refused(npy_with("{'descr': '\xc3\xa9', 'fortran_order': False, 'shape': (2, 3)}", 24), "not plain text");

  Bytes nan = npy_with(dict("<f4", "False", "(2, 3)"), 24);
  const float bad = NAN;
  std::memcpy(&nan[nan.size() - 8], &bad, 4);  // element 4 = (1, 1)
  expect_refused(nan, "element (1, 1) is not finite");
}

class NpyFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "fftscope-npy-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(NpyFiles, WriteReadAndLoadInput) {
  ComplexImage c(4, 3);
  for (std::size_t i = 0; i < c.data.size(); ++i) c.data[i] = Complex(static_cast<float>(i), -static_cast<float>(i) / 2);
  write_npy(path("c.npy"), c);
  EXPECT_EQ(read_npy(path("c.npy")).values.data, c.data);
  EXPECT_EQ(load_input(path("c.npy")).data, c.data);
  // NPY is recognised by its magic string, whatever the file is called.
  fs::copy_file(path("c.npy"), path("spectrum.data"));
  EXPECT_EQ(load_input(path("spectrum.data")).data, c.data);

  RealImage r(2, 2);
  r.data = {0.5f, 1, 2, 3};
  write_npy(path("r.npy"), r);
  const NpyArray a = read_npy(path("r.npy"));
  EXPECT_FALSE(a.is_complex);
  EXPECT_EQ(a.values.at(1, 1), Complex(3, 0));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 3);  // no temporaries

  for (const std::string name : {"missing.npy", ""}) EXPECT_THROW(read_npy(path(name)), InputError) << name;
  std::ofstream(path("empty.npy")).close();
  EXPECT_THROW(read_npy(path("empty.npy")), InputError);
  EXPECT_THROW(load_input(path("missing.npy")), InputError);
  EXPECT_THROW(read_npy(path("c.npy"), 11), InputError);  // 12 elements over a limit of 11
}

}  // namespace
}  // namespace fftscope
