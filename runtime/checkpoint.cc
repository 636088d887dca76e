#include "rill/runtime/checkpoint.h"

#include <cstring>
#include <new>

#include "absl/strings/str_cat.h"
#include "rill/runtime/file_util.h"

namespace rill {
namespace {

constexpr char kMagic[8] = {'R', 'I', 'L', 'L', 'C', 'K', 'P', 'T'};
constexpr uint32_t kVersion = 1;
constexpr uint32_t kMaxNameBytes = 4096;

struct CrcTable {
  uint32_t t[256];
  CrcTable() {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0x82F63B78u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
  }
};

template <typename T>
void Put(std::string* out, T v) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(v));
}

// Reads fixed-size fields from a byte range, refusing to run past its end.
class Reader {
 public:
  Reader(const std::string& b) : b_(b) {}  // NOLINT
  template <typename T>
  bool Get(T* v) {
    if (b_.size() - pos_ < sizeof(T)) return false;
    std::memcpy(v, b_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }
  bool Skip(uint64_t n) {
    if (b_.size() - pos_ < n) return false;
    pos_ += n;
    return true;
  }
  size_t pos() const { return pos_; }
  size_t left() const { return b_.size() - pos_; }
  const char* at(size_t p) const { return b_.data() + p; }

 private:
  const std::string& b_;
  size_t pos_ = 0;
};

absl::Status Loss(absl::string_view what) {
  return errors::DataLoss("checkpoint is corrupt or truncated: ", what);
}

}  // namespace

uint32_t Crc32c(const void* data, size_t n, uint32_t crc) {
  static const CrcTable table;
  const auto* p = static_cast<const unsigned char*>(data);
  crc = ~crc;
  for (size_t i = 0; i < n; ++i) crc = table.t[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

absl::Status WriteCheckpoint(const std::string& path, const NamedTensors& tensors) {
  std::string bytes(kMagic, sizeof(kMagic));
  Put<uint32_t>(&bytes, kVersion);
  Put<uint32_t>(&bytes, static_cast<uint32_t>(tensors.size()));
  Put<uint32_t>(&bytes, Crc32c(bytes.data(), bytes.size()));
  for (const auto& [name, t] : tensors) {
    if (!t.IsInitialized() || !t.OnHost()) {
      return errors::InvalidArgument("cannot save '", name, "': not an initialized host tensor");
    }
    if (name.empty() || name.size() > kMaxNameBytes) {
      return errors::InvalidArgument("cannot save a tensor named '", name, "'");
    }
    const size_t start = bytes.size();
    Put<uint32_t>(&bytes, static_cast<uint32_t>(name.size()));
    bytes += name;
    Put<uint32_t>(&bytes, static_cast<uint32_t>(t.dtype()));
    Put<uint32_t>(&bytes, static_cast<uint32_t>(t.dims()));
    for (int64_t d : t.shape().dim_sizes()) Put<int64_t>(&bytes, d);
    Put<uint64_t>(&bytes, t.TotalBytes());
    bytes.append(static_cast<const char*>(t.data()), t.TotalBytes());
    Put<uint32_t>(&bytes, Crc32c(bytes.data() + start, bytes.size() - start));
  }
  return WriteFileAtomically(path, bytes, "checkpoint");
}

absl::StatusOr<NamedTensors> ParseCheckpoint(const std::string& bytes) {
  Reader r(bytes);
  char magic[8];
  if (bytes.size() < 20 || std::memcmp(bytes.data(), kMagic, 8) != 0) {
    return errors::DataLoss("not a rill checkpoint (bad magic or too short)");
  }
  r.Skip(8);
  uint32_t version, count, header_crc;
  r.Get(&version);
  r.Get(&count);
  r.Get(&header_crc);
  (void)magic;
  if (header_crc != Crc32c(bytes.data(), 16)) return Loss("header checksum mismatch");
  if (version != kVersion) return errors::DataLoss("unsupported checkpoint version ", version);
  NamedTensors out;
  for (uint32_t i = 0; i < count; ++i) {
    const size_t start = r.pos();
    uint32_t name_len, dtype, rank;
    if (!r.Get(&name_len) || name_len == 0 || name_len > kMaxNameBytes || r.left() < name_len) {
      return Loss(absl::StrCat("record ", i, ": bad name length"));
    }
    std::string name(r.at(r.pos()), name_len);
    r.Skip(name_len);
    if (!r.Get(&dtype) || !DataTypeIsValid(static_cast<DataType>(dtype))) {
      return Loss(absl::StrCat("record ", i, " ('", name, "'): bad dtype"));
    }
    if (!r.Get(&rank) || rank > static_cast<uint32_t>(kMaxTensorRank)) {
      return Loss(absl::StrCat("record ", i, " ('", name, "'): bad rank"));
    }
    std::vector<int64_t> dims(rank);
    for (auto& d : dims) {
      if (!r.Get(&d)) return Loss(absl::StrCat("record ", i, " ('", name, "'): truncated shape"));
    }
    auto shape = TensorShape::Build(dims);
    uint64_t data_bytes;
    if (!shape.ok() || !r.Get(&data_bytes)) {
      return Loss(absl::StrCat("record ", i, " ('", name, "'): bad shape"));
    }
    const DataType dt = static_cast<DataType>(dtype);
    const int64_t want = MultiplyWithoutOverflow(shape->num_elements(), DataTypeSize(dt));
    // Checked against the bytes present before anything is allocated.
    if (want < 0 || data_bytes != static_cast<uint64_t>(want) || r.left() < data_bytes + 4) {
      return Loss(absl::StrCat("record ", i, " ('", name, "'): size does not match"));
    }
    const size_t data_at = r.pos();
    r.Skip(data_bytes);
    uint32_t crc;
    r.Get(&crc);
    if (crc != Crc32c(r.at(start), data_at + data_bytes - start)) {
      return Loss(absl::StrCat("record ", i, " ('", name, "'): checksum mismatch"));
    }
    // A valid checksum says the bytes are the ones written, not that they are values of
    // the dtype: a bool byte other than 0 or 1 is undefined behaviour in every kernel.
    if (dt == DT_BOOL) {
      const auto* b = reinterpret_cast<const unsigned char*>(r.at(data_at));
      for (uint64_t k = 0; k < data_bytes; ++k) {
        if (b[k] > 1) {
          return Loss(absl::StrCat("record ", i, " ('", name, "'): bool element ", k, " is ",
                                   int{b[k]}, ", not 0 or 1"));
        }
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(dt, *shape));
    std::memcpy(t.data(), r.at(data_at), data_bytes);
    out.emplace_back(std::move(name), std::move(t));
  }
  if (r.left() != 0) return Loss("trailing bytes after the last record");
  return out;
}

absl::StatusOr<NamedTensors> ReadCheckpoint(const std::string& path) {
  // Any size a machine could hold; past memory the read is ResourceExhausted.
  RILL_ASSIGN_OR_RETURN(std::string bytes, ReadFileToString(path, "checkpoint", int64_t{1} << 38));
  absl::StatusOr<NamedTensors> parsed;
  try {
    parsed = ParseCheckpoint(bytes);
  } catch (const std::bad_alloc&) {
    parsed = errors::ResourceExhausted("out of memory");
  }
  if (!parsed.ok()) return errors::Annotate(parsed.status(), absl::StrCat(path, ": "));
  return parsed;
}

}  // namespace rill
