#include "rill/runtime/data/cifar.h"

#include <cstdio>
#include <fstream>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "rill/core/status.h"

namespace rill::data {
namespace {

// Appends the records of `bytes` (already checked to be whole) at row `offset`.
absl::Status Decode(absl::Span<const unsigned char> bytes, const std::string& path,
                    LabeledImages* out, int64_t offset) {
  const int64_t n = static_cast<int64_t>(bytes.size()) / kCifarRecordBytes;
  float* img = out->images.base<float>() + offset * 3072;
  int32_t* lab = out->labels.base<int32_t>() + offset;
  for (int64_t r = 0; r < n; ++r) {
    const unsigned char* rec = bytes.data() + r * kCifarRecordBytes;
    if (rec[0] > 9) {
      return errors::DataLoss(path, ": record ", r, " has label ", static_cast<int>(rec[0]),
                              "; CIFAR-10 labels are 0..9");
    }
    lab[r] = rec[0];
    const unsigned char* px = rec + 1;
    for (int p = 0; p < 1024; ++p) {  // planes (R, G, B) to interleaved HWC
      for (int c = 0; c < 3; ++c) img[(r * 1024 + p) * 3 + c] = px[c * 1024 + p] / 255.0f;
    }
  }
  return absl::OkStatus();
}

absl::Status CheckWholeRecords(uint64_t size, const std::string& what) {
  if (size == 0 || size % kCifarRecordBytes != 0) {
    return errors::DataLoss(what, ": ", size, " bytes is not a whole number of ", kCifarRecordBytes,
                            "-byte CIFAR-10 records");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<unsigned char>> ReadWhole(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) return errors::NotFound("cannot open CIFAR-10 file '", path, "'");
  const std::streamoff size = f.tellg();
  if (size < 0) return errors::DataLoss(path, ": cannot tell its size");
  RILL_RETURN_IF_ERROR(CheckWholeRecords(static_cast<uint64_t>(size), path));
  std::vector<unsigned char> bytes(static_cast<size_t>(size));
  f.seekg(0);
  if (!f.read(reinterpret_cast<char*>(bytes.data()), size)) {
    return errors::DataLoss(path, ": read failed");
  }
  return bytes;
}

LabeledImages Allocate(int64_t n) {
  return {Tensor(DT_FLOAT, TensorShape({n, 32, 32, 3})), Tensor(DT_INT32, TensorShape({n}))};
}

// One batch of whole records, decoded into tensors of its own.
absl::StatusOr<LabeledImages> DecodeBatch(absl::Span<const unsigned char> bytes,
                                          const std::string& what) {
  LabeledImages out = Allocate(static_cast<int64_t>(bytes.size()) / kCifarRecordBytes);
  RILL_RETURN_IF_ERROR(Decode(bytes, what, &out, 0));
  return out;
}

}  // namespace

absl::StatusOr<LabeledImages> ReadCifar10File(const std::string& path) {
  RILL_ASSIGN_OR_RETURN(auto bytes, ReadWhole(path));
  return DecodeBatch(bytes, path);
}

absl::StatusOr<LabeledImages> ParseCifar10(const std::string& bytes, const std::string& what) {
  RILL_RETURN_IF_ERROR(CheckWholeRecords(bytes.size(), what));
  return DecodeBatch(
      absl::MakeConstSpan(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()),
      what);
}

absl::StatusOr<Cifar10> LoadCifar10(const std::string& dir) {
  std::vector<std::vector<unsigned char>> parts;
  std::vector<std::string> names;
  int64_t n = 0;
  for (int i = 1; i <= 5; ++i) {
    names.push_back(absl::StrCat(dir, "/data_batch_", i, ".bin"));
    RILL_ASSIGN_OR_RETURN(auto bytes, ReadWhole(names.back()));
    n += static_cast<int64_t>(bytes.size()) / kCifarRecordBytes;
    parts.push_back(std::move(bytes));
  }
  Cifar10 c;
  c.train = Allocate(n);
  int64_t offset = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    RILL_RETURN_IF_ERROR(Decode(parts[i], names[i], &c.train, offset));
    offset += static_cast<int64_t>(parts[i].size()) / kCifarRecordBytes;
  }
  RILL_ASSIGN_OR_RETURN(c.test, ReadCifar10File(dir + "/test_batch.bin"));
  return c;
}

Cifar10 SyntheticCifar10(int64_t train, int64_t test, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> u(0, 1);
  std::vector<float> means(10 * 3072);
  for (float& m : means) m = 0.25f + 0.5f * u(gen);
  auto fill = [&](int64_t n) {
    LabeledImages d = Allocate(n);
    std::normal_distribution<float> noise(0, 0.2f);
    float* img = d.images.base<float>();
    for (int64_t r = 0; r < n; ++r) {
      const int32_t label = static_cast<int32_t>(gen() % 10);
      d.labels.base<int32_t>()[r] = label;
      for (int p = 0; p < 3072; ++p) {
        const float v = means[label * 3072 + p] + noise(gen);
        img[r * 3072 + p] = v < 0 ? 0 : (v > 1 ? 1 : v);
      }
    }
    return d;
  };
  Cifar10 c;
  c.train = fill(train);
  c.test = fill(test);
  c.synthetic = true;
  return c;
}

}  // namespace rill::data
