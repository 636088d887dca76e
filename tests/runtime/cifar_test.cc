// The CIFAR-10 reader on files written here: layout (planes to NHWC, bytes to [0, 1]),
// labels, the six-file loader, and malformed files as a Status.
#include "rill/runtime/data/cifar.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "test_util.h"

namespace rill::testing {
namespace {
namespace cifar_test {

// `n` records; record r has label r % 10 and pixel byte (r + channel * 7 + p) % 256.
std::string Record(int r, int label) {
  std::string rec(data::kCifarRecordBytes, '\0');
  rec[0] = static_cast<char>(label);
  for (int c = 0; c < 3; ++c)
    for (int p = 0; p < 1024; ++p) rec[1 + c * 1024 + p] = static_cast<char>((r + c * 7 + p) % 256);
  return rec;
}

std::string Write(const std::string& name, const std::string& bytes) {
  std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TEST(Cifar10, ReadsRecordsIntoNhwcFloats) {
  std::string bytes;
  for (int r = 0; r < 3; ++r) bytes += Record(r, (r * 4) % 10);
  auto got = data::ReadCifar10File(Write("cifar_ok.bin", bytes));
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->images.shape(), TensorShape({3, 32, 32, 3}));
  EXPECT_EQ(ToDoubles(got->labels), std::vector<double>({0, 4, 8}));
  // Record 2, pixel (row 1, col 3) = plane index 35, channel 2 (blue).
  const float v = got->images.base<float>()[((2 * 32 + 1) * 32 + 3) * 3 + 2];
  EXPECT_FLOAT_EQ(v, ((2 + 14 + 35) % 256) / 255.0f);
}

TEST(Cifar10, MalformedFilesAreStatus) {
  auto missing = data::ReadCifar10File(::testing::TempDir() + "/no_such_cifar.bin");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  std::string two = Record(0, 1) + Record(1, 2);
  auto truncated = data::ReadCifar10File(Write("cifar_trunc.bin", two.substr(0, two.size() - 5)));
  EXPECT_EQ(truncated.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(std::string(truncated.status().message()).find("whole number"), std::string::npos);
  auto empty = data::ReadCifar10File(Write("cifar_empty.bin", ""));
  EXPECT_EQ(empty.status().code(), absl::StatusCode::kDataLoss);
  auto bad_label = data::ReadCifar10File(Write("cifar_label.bin", Record(0, 3) + Record(1, 10)));
  EXPECT_EQ(bad_label.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(std::string(bad_label.status().message()).find("record 1 has label 10"),
            std::string::npos)
      << bad_label.status();
  auto garbage = data::ReadCifar10File(Write("cifar_garbage.bin", std::string(3073, '\xff')));
  EXPECT_EQ(garbage.status().code(), absl::StatusCode::kDataLoss);
}

TEST(Cifar10, LoadsTheSixFilesOfADirectory) {
  const std::string dir = ::testing::TempDir() + "/cifar_dir";
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  std::remove((dir + "/test_batch.bin").c_str());  // left by an earlier run
  for (int b = 1; b <= 5; ++b) {
    std::ofstream(dir + "/data_batch_" + std::to_string(b) + ".bin", std::ios::binary)
        << Record(b, b) + Record(b + 10, 9 - b);
  }
  auto missing = data::LoadCifar10(dir);
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);  // no test_batch yet
  std::ofstream(dir + "/test_batch.bin", std::ios::binary) << Record(0, 7);
  auto all = data::LoadCifar10(dir);
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ(all->train.images.dim_size(0), 10);
  EXPECT_EQ(ToDoubles(all->train.labels), std::vector<double>({1, 8, 2, 7, 3, 6, 4, 5, 5, 4}));
  EXPECT_EQ(all->test.labels.NumElements(), 1);
  EXPECT_FALSE(all->synthetic);
  auto synth = data::SyntheticCifar10(20, 5, 3);
  ASSERT_TRUE(synth.ok()) << synth.status();
  EXPECT_TRUE(synth->synthetic);
  EXPECT_EQ(synth->train.images.shape(), TensorShape({20, 32, 32, 3}));
  for (double v : ToDoubles(synth->train.images)) ASSERT_TRUE(v >= 0 && v <= 1);
}

}  // namespace cifar_test
}  // namespace
}  // namespace rill::testing

namespace rill::testing {
namespace {
namespace cifar_test {

// Regression (outside attack, 2026-11): a directory read as a batch reported
// 9223372036854775807 bytes; SyntheticCifar10(-1) returned uninitialized tensors and
// SyntheticCifar10(2^40) crashed; every size is now checked before allocating.
TEST(Cifar10, DirectoriesNegativeAndHugeCountsAreStatus) {
  auto dir = data::ReadCifar10File(::testing::TempDir());
  EXPECT_EQ(dir.status().code(), absl::StatusCode::kFailedPrecondition) << dir.status();
  EXPECT_NE(std::string(dir.status().message()).find("directory"), std::string::npos);
  EXPECT_EQ(std::string(dir.status().message()).find("9223372036854775807"), std::string::npos);
  for (auto [train, test] : std::vector<std::pair<int64_t, int64_t>>{
           {-1, 5}, {5, -1}, {int64_t{1} << 40, 1}, {INT64_MAX, 0}, {INT64_MIN, 0}}) {
    auto s = data::SyntheticCifar10(train, test, 1);
    EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument) << train << " " << test;
  }
  auto none = data::SyntheticCifar10(0, 0, 1);
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_EQ(none->train.images.shape(), TensorShape({0, 32, 32, 3}));
  EXPECT_TRUE(none->train.images.IsInitialized());
}

}  // namespace cifar_test
}  // namespace
}  // namespace rill::testing
