#include "rill/runtime/data/cifar.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "rill/core/status.h"

namespace rill::data {
namespace {

// Decodes whole records into the tensors at row `offset`.
absl::Status Decode(absl::Span<const unsigned char> bytes, const std::string& what,
                    LabeledImages* out, int64_t offset, int64_t first_record) {
  const int64_t n = static_cast<int64_t>(bytes.size()) / kCifarRecordBytes;
  float* img = out->images.base<float>() + offset * 3072;
  int32_t* lab = out->labels.base<int32_t>() + offset;
  for (int64_t r = 0; r < n; ++r) {
    const unsigned char* rec = bytes.data() + r * kCifarRecordBytes;
    if (rec[0] > 9) {
      return errors::DataLoss(what, ": record ", first_record + r, " has label ",
                              static_cast<int>(rec[0]), "; CIFAR-10 labels are 0..9");
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
  if (size / kCifarRecordBytes > static_cast<uint64_t>(kMaxCifarRecords)) {
    return errors::ResourceExhausted(what, ": ", size / kCifarRecordBytes,
                                     " records is more than the reader's limit of ",
                                     kMaxCifarRecords);
  }
  return absl::OkStatus();
}

absl::StatusOr<LabeledImages> Allocate(int64_t n) {
  if (n < 0 || n > kMaxCifarRecords) {
    return errors::InvalidArgument("a CIFAR-10 set of ", n, " examples; 0..", kMaxCifarRecords,
                                   " are allowed");
  }
  LabeledImages out;
  RILL_ASSIGN_OR_RETURN(out.images, Tensor::Create(DT_FLOAT, TensorShape({n, 32, 32, 3})));
  RILL_ASSIGN_OR_RETURN(out.labels, Tensor::Create(DT_INT32, TensorShape({n})));
  return out;
}

// A batch file open for reading, its size known and checked before anything is
// allocated for it.
class BatchFile {
 public:
  ~BatchFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  absl::Status Open(const std::string& path) {
    path_ = path;
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      return errors::NotFound("cannot open CIFAR-10 file '", path, "': ", std::strerror(errno));
    }
    struct stat st;
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
      return errors::FailedPrecondition("CIFAR-10 file '", path, "' is ",
                                        S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
    }
    RILL_RETURN_IF_ERROR(CheckWholeRecords(static_cast<uint64_t>(st.st_size), path));
    records_ = st.st_size / kCifarRecordBytes;
    return absl::OkStatus();
  }
  int64_t records() const { return records_; }

  // Reads and decodes every record into `out` from row `offset`, a chunk at a time, so
  // the file's bytes are never all in memory beside the tensors.
  absl::Status DecodeInto(LabeledImages* out, int64_t offset) {
    constexpr int64_t kChunk = 256;
    std::vector<unsigned char> buf(kChunk * kCifarRecordBytes);
    for (int64_t r = 0; r < records_; r += kChunk) {
      const int64_t n = std::min(kChunk, records_ - r);
      const size_t want = static_cast<size_t>(n) * kCifarRecordBytes;
      size_t got = 0;
      while (got < want) {
        ssize_t k = ::read(fd_, buf.data() + got, want - got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return errors::DataLoss(path_, ": read failed at record ", r);
        got += static_cast<size_t>(k);
      }
      RILL_RETURN_IF_ERROR(
          Decode(absl::MakeConstSpan(buf.data(), want), path_, out, offset + r, r));
    }
    return absl::OkStatus();
  }

 private:
  std::string path_;
  int fd_ = -1;
  int64_t records_ = 0;
};

}  // namespace

absl::StatusOr<LabeledImages> ReadCifar10File(const std::string& path) {
  BatchFile f;
  RILL_RETURN_IF_ERROR(f.Open(path));
  RILL_ASSIGN_OR_RETURN(LabeledImages out, Allocate(f.records()));
  RILL_RETURN_IF_ERROR(f.DecodeInto(&out, 0));
  return out;
}

absl::StatusOr<LabeledImages> ParseCifar10(const std::string& bytes, const std::string& what) {
  RILL_RETURN_IF_ERROR(CheckWholeRecords(bytes.size(), what));
  RILL_ASSIGN_OR_RETURN(LabeledImages out,
                        Allocate(static_cast<int64_t>(bytes.size()) / kCifarRecordBytes));
  RILL_RETURN_IF_ERROR(Decode(
      absl::MakeConstSpan(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()), what,
      &out, 0, 0));
  return out;
}

absl::StatusOr<Cifar10> LoadCifar10(const std::string& dir) {
  BatchFile parts[5];
  int64_t n = 0;
  for (int i = 0; i < 5; ++i) {
    RILL_RETURN_IF_ERROR(parts[i].Open(absl::StrCat(dir, "/data_batch_", i + 1, ".bin")));
    n += parts[i].records();
  }
  Cifar10 c;
  RILL_ASSIGN_OR_RETURN(c.train, Allocate(n));
  int64_t offset = 0;
  for (BatchFile& part : parts) {
    RILL_RETURN_IF_ERROR(part.DecodeInto(&c.train, offset));
    offset += part.records();
  }
  RILL_ASSIGN_OR_RETURN(c.test, ReadCifar10File(dir + "/test_batch.bin"));
  return c;
}

absl::StatusOr<Cifar10> SyntheticCifar10(int64_t train, int64_t test, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> u(0, 1);
  std::vector<float> means(10 * 3072);
  for (float& m : means) m = 0.25f + 0.5f * u(gen);
  auto fill = [&](int64_t n) -> absl::StatusOr<LabeledImages> {
    RILL_ASSIGN_OR_RETURN(LabeledImages d, Allocate(n));
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
  RILL_ASSIGN_OR_RETURN(c.train, fill(train));
  RILL_ASSIGN_OR_RETURN(c.test, fill(test));
  c.synthetic = true;
  return c;
}

}  // namespace rill::data
