#include "rill/runtime/data/idx.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <new>

#include "rill/core/checked_math.h"
#include "rill/core/limits.h"
#include "rill/core/status.h"
#include "rill/runtime/file_util.h"

namespace rill::data {
namespace {

// Bytes per element in the file, and the tensor's dtype, for an IDX type byte; 0 bytes
// for an unknown type.
int64_t ElementBytes(unsigned char type, DataType* dt) {
  switch (type) {
    case 0x08:
      return *dt = DT_UINT8, 1;
    case 0x09:
      return *dt = DT_INT32, 1;
    case 0x0B:
      return *dt = DT_INT32, 2;
    case 0x0C:
      return *dt = DT_INT32, 4;
    case 0x0D:
      return *dt = DT_FLOAT, 4;
    case 0x0E:
      return *dt = DT_DOUBLE, 8;
    default:
      return 0;
  }
}

// What the header declares. `b` may hold just the header (the gzip reader asks before
// inflating the data).
struct Declared {
  DataType dtype = DT_INVALID;
  int64_t element_bytes = 0;
  std::vector<int64_t> dims;
  size_t header = 0;
  uint64_t total = 0;  // header + data bytes
};

// DataLoss for a bad magic, type or rank; ResourceExhausted when the dims declare more
// than kMaxIdxDataBytes (checked as it multiplies, so nothing wraps).
absl::StatusOr<Declared> ReadHeader(absl::string_view b, const std::string& what) {
  if (b.size() < 4 || b[0] != 0 || b[1] != 0) {
    return errors::DataLoss(what, ": not an IDX file (bad magic number)");
  }
  Declared d;
  const unsigned char type = static_cast<unsigned char>(b[2]);
  d.element_bytes = ElementBytes(type, &d.dtype);
  if (d.element_bytes == 0) {
    return errors::DataLoss(what, ": unknown IDX element type ", static_cast<int>(type));
  }
  const int rank = static_cast<unsigned char>(b[3]);
  if (rank < 1 || rank > kMaxTensorRank) {
    return errors::DataLoss(what, ": IDX rank ", rank, " is outside 1..", kMaxTensorRank);
  }
  d.header = 4 + 4 * static_cast<size_t>(rank);
  if (b.size() < d.header) return errors::DataLoss(what, ": truncated IDX header");
  int64_t bytes = d.element_bytes;
  for (int i = 0; i < rank; ++i) {
    const auto* p = reinterpret_cast<const unsigned char*>(b.data() + 4 + 4 * i);
    const int64_t v = (int64_t{p[0]} << 24) | (int64_t{p[1]} << 16) | (int64_t{p[2]} << 8) | p[3];
    if (v > 0x7fffffff) return errors::DataLoss(what, ": dim ", i, " is negative (int32)");
    d.dims.push_back(v);
    auto m = checked::Mul(bytes, v);
    if (!m || *m > kMaxIdxDataBytes) {
      return errors::ResourceExhausted(what, ": its dims declare more than the reader's limit of ",
                                       kMaxIdxDataBytes, " data bytes");
    }
    bytes = *m;
  }
  d.total = d.header + static_cast<uint64_t>(bytes);
  return d;
}

// gunzip into a buffer of exactly the size the IDX header declares: a stream that
// inflates past it (a bomb, or trailing data) is refused as soon as it does, so a small
// file never makes the reader allocate more than its header declares (capped).
absl::StatusOr<std::string> Gunzip(const std::string& in, const std::string& what) {
  z_stream z;
  std::memset(&z, 0, sizeof z);
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
    return errors::ResourceExhausted("zlib could not start inflating ", what);
  }
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  std::string out(4, '\0');    // the magic, then magic and dims, then the data
  size_t done = 0, limit = 0;  // limit: the declared size + 1 (one more byte is too many)
  int stage = 0;               // 0: reading the magic, 1: the dims, 2: the data
  int rc = Z_OK;
  absl::Status status;
  while (status.ok()) {
    z.next_out = reinterpret_cast<Bytef*>(out.data() + done);
    z.avail_out = static_cast<uInt>(out.size() - done);
    rc = inflate(&z, Z_NO_FLUSH);
    done = out.size() - z.avail_out;
    if (done < out.size() || (rc != Z_OK && rc != Z_STREAM_END)) break;  // ended or broken
    if (stage == 2 && out.size() < limit) {
      // Grow with what arrives, never past the declared size: a header that declares a
      // gigabyte over a few bytes of stream costs what the stream inflates to.
      out.resize(std::min(limit, std::max<size_t>(2 * out.size(), size_t{1} << 16)));
      continue;
    }
    if (stage == 0) {
      const int rank = static_cast<unsigned char>(out[3]);
      if (rank < 1 || rank > kMaxTensorRank) {
        status = ReadHeader(out, what).status();  // names what is wrong with the magic
        break;
      }
      out.resize(4 + 4 * static_cast<size_t>(rank));
    } else if (stage == 1) {
      absl::StatusOr<Declared> d = ReadHeader(out, what);
      if (d.ok()) {
        limit = static_cast<size_t>(d->total) + 1;
        out.resize(std::min(limit, out.size() + (size_t{1} << 16)));
      }
      status = d.status();
    } else {
      status = errors::DataLoss(what, ": the gzip stream holds more bytes than its IDX header ",
                                "declares (", limit - 1, ")");
    }
    ++stage;
  }
  inflateEnd(&z);
  RILL_RETURN_IF_ERROR(status);
  if (rc != Z_STREAM_END)
    return errors::DataLoss(what, ": the gzip stream is corrupt or truncated");
  out.resize(done);
  return out;
}

void Decode(const Declared& d, unsigned char type, const unsigned char* src, Tensor* t) {
  const uint64_t n = static_cast<uint64_t>(t->NumElements());
  const size_t in_size = static_cast<size_t>(d.element_bytes);
  for (uint64_t i = 0; i < n; ++i) {
    const unsigned char* e = src + i * in_size;
    uint64_t bits = 0;
    for (size_t k = 0; k < in_size; ++k) bits = (bits << 8) | e[k];  // big-endian
    switch (type) {
      case 0x08:
        t->base<uint8_t>()[i] = e[0];
        break;
      case 0x09:
        t->base<int32_t>()[i] = static_cast<int8_t>(e[0]);
        break;
      case 0x0B:
        t->base<int32_t>()[i] = static_cast<int16_t>(bits);
        break;
      case 0x0C:
        t->base<int32_t>()[i] = static_cast<int32_t>(bits);
        break;
      case 0x0D: {
        uint32_t u = static_cast<uint32_t>(bits);
        std::memcpy(t->base<float>() + i, &u, 4);
        break;
      }
      default:
        std::memcpy(t->base<double>() + i, &bits, 8);
    }
  }
}

}  // namespace

absl::StatusOr<Tensor> ParseIdx(const std::string& b, const std::string& what) {
  RILL_ASSIGN_OR_RETURN(Declared d, ReadHeader(b, what));
  if (b.size() != d.total) {
    return errors::DataLoss(what, ": its dims need ", d.total - d.header,
                            " data bytes but the file has ", b.size() - d.header);
  }
  auto shape = TensorShape::Build(d.dims);
  if (!shape.ok()) return errors::DataLoss(what, ": ", shape.status().message());
  RILL_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(d.dtype, *shape));
  Decode(d, static_cast<unsigned char>(b[2]),
         reinterpret_cast<const unsigned char*>(b.data() + d.header), &t);
  return t;
}

absl::StatusOr<Tensor> ParseIdxFile(const std::string& bytes, const std::string& what) {
  try {
    if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
        static_cast<unsigned char>(bytes[1]) == 0x8b) {
      RILL_ASSIGN_OR_RETURN(std::string plain, Gunzip(bytes, what));
      return ParseIdx(plain, what);
    }
    return ParseIdx(bytes, what);
  } catch (const std::bad_alloc&) {
    return errors::ResourceExhausted("out of memory reading IDX file '", what, "'");
  }
}

absl::StatusOr<Tensor> ReadIdx(const std::string& path) {
  // A plain file is its declared size; a gzip one is smaller than what it declares.
  RILL_ASSIGN_OR_RETURN(std::string bytes,
                        ReadFileToString(path, "IDX file", kMaxIdxDataBytes + 64));
  return ParseIdxFile(bytes, path);
}

absl::StatusOr<LabeledImages> LoadIdxImagesAndLabels(const std::string& images_path,
                                                     const std::string& labels_path) {
  RILL_ASSIGN_OR_RETURN(Tensor images, ReadIdx(images_path));
  RILL_ASSIGN_OR_RETURN(Tensor labels, ReadIdx(labels_path));
  if (images.dtype() != DT_UINT8 || images.dims() != 3) {
    return errors::DataLoss(images_path, ": expected uint8 images [n, rows, cols], got ",
                            DataTypeString(images.dtype()), " ", images.shape().DebugString());
  }
  if (labels.dtype() != DT_UINT8 || labels.dims() != 1 ||
      labels.dim_size(0) != images.dim_size(0)) {
    return errors::DataLoss(labels_path, ": expected ", images.dim_size(0), " uint8 labels, got ",
                            DataTypeString(labels.dtype()), " ", labels.shape().DebugString());
  }
  const int64_t n = images.dim_size(0), rows = images.dim_size(1), cols = images.dim_size(2);
  LabeledImages out;
  RILL_ASSIGN_OR_RETURN(out.images, Tensor::Create(DT_FLOAT, TensorShape({n, rows, cols, 1})));
  RILL_ASSIGN_OR_RETURN(out.labels, Tensor::Create(DT_INT32, TensorShape({n})));
  for (int64_t i = 0; i < images.NumElements(); ++i) {
    out.images.base<float>()[i] = images.base<uint8_t>()[i] / 255.0f;
  }
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t l = labels.base<uint8_t>()[i];
    if (l > 9)
      return errors::DataLoss(labels_path, ": label ", int{l}, " of example ", i, " is not 0..9");
    out.labels.base<int32_t>()[i] = l;
  }
  return out;
}

}  // namespace rill::data
