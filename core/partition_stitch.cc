#include "rill/core/partition_stitch.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "rill/core/status.h"

namespace rill {
namespace {

// Whether `prefix`'s dims begin `shape`'s.
bool StartsWith(const TensorShape& shape, const TensorShape& prefix) {
  if (prefix.dims() > shape.dims()) return false;
  for (int d = 0; d < prefix.dims(); ++d) {
    if (shape.dim_size(d) != prefix.dim_size(d)) return false;
  }
  return true;
}

// `shape`'s dims from `from` on (none when `from` is past its rank).
TensorShape DimsFrom(const TensorShape& shape, int from) {
  return TensorShape(shape.dim_sizes().subspan(std::min(from, shape.dims())));
}

// The row shape ([rows] + row) a partitioned or stitched tensor has.
TensorShape Rows(int64_t rows, TensorShape row) {
  row.InsertDim(0, rows);
  return row;
}

}  // namespace

absl::Status ComputeDynamicPartition(OpKernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  const Tensor& partitions = ctx.input(1);
  if (!StartsWith(data.shape(), partitions.shape())) {
    return errors::InvalidArgument("partitions' shape ", partitions.shape().DebugString(),
                                   " must be a prefix of data's ", data.shape().DebugString());
  }
  const int64_t num = ctx.node().num_outputs();
  const int32_t* p = partitions.base<int32_t>();
  const int64_t n = partitions.NumElements();
  std::vector<int64_t> counts(num, 0);
  for (int64_t i = 0; i < n; ++i) {
    if (p[i] < 0 || p[i] >= num) {
      return errors::InvalidArgument("partitions[", i, "] = ", p[i], " is not in [0, ", num, ")");
    }
    ++counts[p[i]];
  }
  const TensorShape row = DimsFrom(data.shape(), partitions.dims());
  const size_t row_bytes = static_cast<size_t>(row.num_elements()) * DataTypeSize(data.dtype());
  std::vector<char*> dst(num);
  for (int64_t k = 0; k < num; ++k) {
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(static_cast<int>(k), Rows(counts[k], row), &out));
    dst[k] = static_cast<char*>(out->data());
  }
  if (row_bytes == 0) return absl::OkStatus();
  const char* src = static_cast<const char*>(data.data());
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(dst[p[i]], src + i * row_bytes, row_bytes);
    dst[p[i]] += row_bytes;
  }
  return absl::OkStatus();
}

namespace {

// TensorFlow's words: data[i] must start with indices[i]'s shape, and its rows must be
// data[0]'s.
absl::Status CheckStitchInput(int i, const TensorShape& indices, const TensorShape& data,
                              const TensorShape& indices0, const TensorShape& data0) {
  if (!StartsWith(data, indices)) {
    return errors::InvalidArgument("data[", i, "].shape = ", data.DebugString(),
                                   " does not start with indices[", i,
                                   "].shape = ", indices.DebugString());
  }
  if (DimsFrom(data, indices.dims()) != DimsFrom(data0, indices0.dims())) {
    return errors::InvalidArgument(
        "Need data[0].shape[", indices0.dims(), ":] = data[", i, "].shape[", indices.dims(),
        ":], got data[0].shape = ", data0.DebugString(), ", data[", i,
        "].shape = ", data.DebugString(), ", indices[0].shape = ", indices0.DebugString(),
        ", indices[", i, "].shape = ", indices.DebugString());
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ComputeDynamicStitch(OpKernelContext& ctx) {
  const int lists = ctx.num_inputs() / 2;
  const TensorShape row = DimsFrom(ctx.input(lists).shape(), ctx.input(0).dims());
  int64_t rows = 0;
  for (int i = 0; i < lists; ++i) {
    const Tensor& indices = ctx.input(i);
    const Tensor& data = ctx.input(lists + i);
    RILL_RETURN_IF_ERROR(CheckStitchInput(i, indices.shape(), data.shape(), ctx.input(0).shape(),
                                          ctx.input(lists).shape()));
    const int32_t* idx = indices.base<int32_t>();
    for (int64_t j = 0, n = indices.NumElements(); j < n; ++j) {
      if (idx[j] < 0) {
        return errors::InvalidArgument("indices[", i, "][", j, "] is ", idx[j],
                                       "; indices must be >= 0");
      }
      rows = std::max<int64_t>(rows, int64_t{idx[j]} + 1);
    }
  }
  Tensor* out;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, Rows(rows, row), &out));
  if (out->TotalBytes() == 0) return absl::OkStatus();
  std::memset(out->data(), 0, out->TotalBytes());
  const size_t row_bytes = static_cast<size_t>(row.num_elements()) * DataTypeSize(out->dtype());
  char* dst = static_cast<char*>(out->data());
  for (int i = 0; i < lists; ++i) {
    const int32_t* idx = ctx.input(i).base<int32_t>();
    const char* src = static_cast<const char*>(ctx.input(lists + i).data());
    for (int64_t j = 0, n = ctx.input(i).NumElements(); j < n; ++j) {
      std::memcpy(dst + idx[j] * row_bytes, src + j * row_bytes, row_bytes);
    }
  }
  return absl::OkStatus();
}

}  // namespace rill
