// CPU kernels of Transpose, ReverseV2, Reverse, Slice, Pad, BroadcastTo, ConcatV2, StridedSlice and
// StridedSliceGrad: strided copies of bytes
// (core/strided_copy.h), so one implementation serves every dtype; runs that are
// contiguous on both sides are memcpy'd.
#include <cstring>

#include "rill/core/strided_copy.h"
#include "rill/core/strided_slice.h"

namespace rill::cpu {
namespace {

// Every element of `out` set to the scalar `value` (any dtype: its bytes).
void Fill(const Tensor& value, Tensor* out) {
  const size_t es = DataTypeSize(value.dtype());
  char* dst = static_cast<char*>(out->data());
  for (int64_t i = 0; i < out->NumElements(); ++i) std::memcpy(dst + i * es, value.data(), es);
}

template <absl::StatusOr<CopyJob> (*kPrepare)(OpKernelContext&)>
class StridedCopyOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(CopyJob job, kPrepare(ctx));
    if (job.done) return absl::OkStatus();
    if (job.zero_fill) std::memset(job.out->data(), 0, job.out->TotalBytes());
    if (job.fill >= 0) Fill(ctx.input(job.fill), job.out);
    const Tensor& src = ctx.input(job.source);
    RunStridedCopyOnHost(job.copy, src.data(), job.out->data(), DataTypeSize(src.dtype()));
    return absl::OkStatus();
  }
};

class ConcatOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(std::vector<StridedCopy> copies, PrepareConcat(ctx, &out));
    const size_t es = DataTypeSize(out->dtype());
    for (size_t i = 0; i < copies.size(); ++i) {
      RunStridedCopyOnHost(copies[i], ctx.input(static_cast<int>(i)).data(), out->data(), es);
    }
    return absl::OkStatus();
  }
};

RILL_REGISTER_KERNEL("Transpose", DEVICE_CPU, "", DT_INVALID, StridedCopyOp<PrepareTranspose>);
RILL_REGISTER_KERNEL("ReverseV2", DEVICE_CPU, "", DT_INVALID, StridedCopyOp<PrepareReverse>);
RILL_REGISTER_KERNEL("Reverse", DEVICE_CPU, "", DT_INVALID, StridedCopyOp<PrepareReverseDims>);
RILL_REGISTER_KERNEL("Slice", DEVICE_CPU, "", DT_INVALID, StridedCopyOp<PrepareSlice>);
RILL_REGISTER_KERNEL("Pad", DEVICE_CPU, "", DT_INVALID, StridedCopyOp<PreparePad>);
RILL_REGISTER_KERNEL("PadV2", DEVICE_CPU, "", DT_INVALID, StridedCopyOp<PreparePadV2>);
RILL_REGISTER_KERNEL("BroadcastTo", DEVICE_CPU, "", DT_INVALID, StridedCopyOp<PrepareBroadcastTo>);
RILL_REGISTER_KERNEL("ConcatV2", DEVICE_CPU, "", DT_INVALID, ConcatOp);
RILL_REGISTER_KERNEL("StridedSlice", DEVICE_CPU, "", DT_INVALID,
                     StridedCopyOp<PrepareStridedSlice>);
RILL_REGISTER_KERNEL("StridedSliceGrad", DEVICE_CPU, "", DT_INVALID,
                     StridedCopyOp<PrepareStridedSliceGrad>);

}  // namespace
}  // namespace rill::cpu
