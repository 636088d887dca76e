#include "rill/runtime/data/idx.h"

#include <zlib.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "rill/core/limits.h"
#include "rill/core/status.h"

namespace rill::data {
namespace {

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return errors::NotFound("cannot open '", path, "'");
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// gunzip, refusing output beyond `limit` bytes (a bomb or a corrupt length).
absl::StatusOr<std::string> Gunzip(const std::string& in, const std::string& what) {
  constexpr size_t kLimit = size_t{1} << 32;
  z_stream z;
  std::memset(&z, 0, sizeof z);
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return errors::Internal("zlib init failed");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  std::string out;
  char buf[1 << 16];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
    if (out.size() > kLimit) rc = Z_MEM_ERROR;
    if (rc == Z_BUF_ERROR && z.avail_in == 0) break;  // truncated input
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END) {
    return errors::DataLoss(what, ": the gzip stream is corrupt or truncated");
  }
  return out;
}

}  // namespace

absl::StatusOr<Tensor> ParseIdx(const std::string& b, const std::string& what) {
  if (b.size() < 4 || b[0] != 0 || b[1] != 0) {
    return errors::DataLoss(what, ": not an IDX file (bad magic number)");
  }
  const unsigned char type = static_cast<unsigned char>(b[2]);
  const int rank = static_cast<unsigned char>(b[3]);
  DataType dt;
  size_t in_size;
  switch (type) {
    case 0x08:
      dt = DT_UINT8, in_size = 1;
      break;
    case 0x09:
      dt = DT_INT32, in_size = 1;
      break;
    case 0x0B:
      dt = DT_INT32, in_size = 2;
      break;
    case 0x0C:
      dt = DT_INT32, in_size = 4;
      break;
    case 0x0D:
      dt = DT_FLOAT, in_size = 4;
      break;
    case 0x0E:
      dt = DT_DOUBLE, in_size = 8;
      break;
    default:
      return errors::DataLoss(what, ": unknown IDX element type ", static_cast<int>(type));
  }
  if (rank < 1 || rank > kMaxTensorRank) {
    return errors::DataLoss(what, ": IDX rank ", rank, " is outside 1..", kMaxTensorRank);
  }
  const size_t header = 4 + 4 * static_cast<size_t>(rank);
  if (b.size() < header) return errors::DataLoss(what, ": truncated IDX header");
  std::vector<int64_t> dims(rank);
  for (int d = 0; d < rank; ++d) {
    const auto* p = reinterpret_cast<const unsigned char*>(b.data() + 4 + 4 * d);
    const uint32_t v =
        (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
    if (v > 0x7fffffffu) return errors::DataLoss(what, ": dim ", d, " is negative");
    dims[d] = v;
  }
  auto shape = TensorShape::Build(dims);
  if (!shape.ok()) return errors::DataLoss(what, ": ", shape.status().message());
  const uint64_t n = static_cast<uint64_t>(shape->num_elements());
  if (n > (b.size() - header) / in_size || b.size() - header != n * in_size) {
    return errors::DataLoss(what, ": the dims ", shape->DebugString(), " need ", n * in_size,
                            " data bytes but the file has ", b.size() - header);
  }
  RILL_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(dt, *shape));
  const auto* src = reinterpret_cast<const unsigned char*>(b.data() + header);
  for (uint64_t i = 0; i < n; ++i) {
    const unsigned char* e = src + i * in_size;
    uint64_t bits = 0;
    for (size_t k = 0; k < in_size; ++k) bits = (bits << 8) | e[k];  // big-endian
    switch (type) {
      case 0x08:
        t.base<uint8_t>()[i] = e[0];
        break;
      case 0x09:
        t.base<int32_t>()[i] = static_cast<int8_t>(e[0]);
        break;
      case 0x0B:
        t.base<int32_t>()[i] = static_cast<int16_t>(bits);
        break;
      case 0x0C:
        t.base<int32_t>()[i] = static_cast<int32_t>(bits);
        break;
      case 0x0D: {
        uint32_t u = static_cast<uint32_t>(bits);
        std::memcpy(t.base<float>() + i, &u, 4);
        break;
      }
      default:
        std::memcpy(t.base<double>() + i, &bits, 8);
    }
  }
  return t;
}

absl::StatusOr<Tensor> ReadIdx(const std::string& path) {
  RILL_ASSIGN_OR_RETURN(std::string bytes, ReadFile(path));
  if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
      static_cast<unsigned char>(bytes[1]) == 0x8b) {
    RILL_ASSIGN_OR_RETURN(bytes, Gunzip(bytes, path));
  }
  return ParseIdx(bytes, path);
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
  LabeledImages out{Tensor(DT_FLOAT, TensorShape({n, rows, cols, 1})),
                    Tensor(DT_INT32, TensorShape({n}))};
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
