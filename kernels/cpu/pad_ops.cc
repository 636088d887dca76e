// CPU kernels of BroadcastTo and Pad. Both move bytes, so one implementation serves every
// dtype: contiguous runs are memcpy'd, broadcast runs filled element by element.
#include <cstring>

#include "rill/core/shape_util.h"
#include "rill/kernels/cpu/cwise.h"

namespace rill::cpu {
namespace {

class BroadcastToOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (ctx.input(1).dims() != 1) return errors::InvalidArgument("shape must be a vector");
    RILL_ASSIGN_OR_RETURN(TensorShape target, shape_fns::ShapeFromTensor(ctx.input(1), "shape"));
    auto b = shape_fns::Broadcast(x.shape(), target);
    if (!b.ok() || *b != target) {
      return errors::InvalidArgument("cannot broadcast shape ", x.shape().DebugString(), " to ",
                                     target.DebugString());
    }
    if (x.shape() == target) {
      ctx.set_output(0, x);
      return absl::OkStatus();
    }
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, target, &out));
    const int64_t n = out->NumElements();
    if (n == 0) return absl::OkStatus();
    const size_t es = DataTypeSize(x.dtype());
    const char* src = static_cast<const char*>(x.data());
    char* dst = static_cast<char*>(out->data());
    BroadcastPlan p = MakeBroadcastPlan(x.shape(), target, target);
    const int last = p.rank - 1;
    const int64_t inner = p.dims[last];
    const bool contiguous = p.a_strides[last] != 0;
    int64_t idx[kMaxTensorRank] = {0};
    int64_t off = 0;
    for (int64_t row = 0; row < n / inner; ++row) {
      char* d = dst + row * inner * es;
      if (contiguous) {
        std::memcpy(d, src + off * es, inner * es);
      } else {
        for (int64_t i = 0; i < inner; ++i) std::memcpy(d + i * es, src + off * es, es);
      }
      for (int k = last - 1; k >= 0; --k) {
        off += p.a_strides[k];
        if (++idx[k] < p.dims[k]) break;
        off -= p.a_strides[k] * p.dims[k];
        idx[k] = 0;
      }
    }
    return absl::OkStatus();
  }
};

class PadOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& pt = ctx.input(1);
    const int rank = x.dims();
    if (pt.dims() != 2 || pt.dim_size(0) != rank || pt.dim_size(1) != 2) {
      return errors::InvalidArgument("paddings must be [", rank, ", 2] for input of shape ",
                                     x.shape().DebugString(), ", got ", pt.shape().DebugString());
    }
    RILL_ASSIGN_OR_RETURN(auto pad, shape_fns::AllIntValues(pt, "paddings"));
    shape_util::Dims dims(x.shape().dim_sizes().begin(), x.shape().dim_sizes().end());
    for (int d = 0; d < rank; ++d) {
      if (pad[2 * d] < 0 || pad[2 * d + 1] < 0) {
        return errors::InvalidArgument("paddings must be >= 0, got ", pad[2 * d], ", ",
                                       pad[2 * d + 1], " for dim ", d);
      }
      dims[d] += pad[2 * d] + pad[2 * d + 1];
    }
    RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(dims));
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &out));
    std::memset(out->data(), 0, out->TotalBytes());
    if (x.NumElements() == 0) return absl::OkStatus();
    const size_t es = DataTypeSize(x.dtype());
    if (rank == 0) {
      std::memcpy(out->data(), x.data(), es);
      return absl::OkStatus();
    }
    // Output strides (elements), then copy each input row (last dim) into place.
    int64_t ostride[kMaxTensorRank];
    ostride[rank - 1] = 1;
    for (int d = rank - 2; d >= 0; --d) ostride[d] = ostride[d + 1] * dims[d + 1];
    const int64_t inner = x.dim_size(rank - 1);
    const int64_t rows = x.NumElements() / inner;
    int64_t idx[kMaxTensorRank] = {0};
    const char* src = static_cast<const char*>(x.data());
    char* dst = static_cast<char*>(out->data());
    for (int64_t r = 0; r < rows; ++r) {
      int64_t o = pad[2 * (rank - 1)];
      for (int d = 0; d < rank - 1; ++d) o += (idx[d] + pad[2 * d]) * ostride[d];
      std::memcpy(dst + o * es, src + r * inner * es, inner * es);
      for (int d = rank - 2; d >= 0; --d) {
        if (++idx[d] < x.dim_size(d)) break;
        idx[d] = 0;
      }
    }
    return absl::OkStatus();
  }
};

RILL_REGISTER_KERNEL("BroadcastTo", DEVICE_CPU, "", DT_INVALID, BroadcastToOp);
RILL_REGISTER_KERNEL("Pad", DEVICE_CPU, "", DT_INVALID, PadOp);

}  // namespace
}  // namespace rill::cpu
