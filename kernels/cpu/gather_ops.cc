// CPU kernels of Gather, GatherV2 (rows moved by their size in bytes: one kernel for every
// dtype) and UnsortedSegmentSum.
#include <cstring>

#include "rill/core/gather.h"

namespace rill::cpu {
namespace {

class GatherOp : public OpKernel {
 public:
  explicit GatherOp(OpKernelConstruction& c) : OpKernel(c), batch_dims_(BatchDimsAttr(c)) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(GatherGeometry g, PrepareGather(ctx, batch_dims_, &out));
    RunGatherOnHost(g, DataTypeSize(out->dtype()), ctx.input(0).data(), ctx.input(1), out->data());
    return absl::OkStatus();
  }

 private:
  int64_t batch_dims_;
};

template <typename T, typename Index>
void SegmentSum(const SegmentGeometry& g, const T* data, const Index* ids, T* out) {
  std::memset(out, 0, sizeof(T) * g.segments * g.inner);
  for (int64_t j = 0; j < g.ids; ++j) {
    if (ids[j] < 0) continue;  // dropped, as TensorFlow's
    T* row = out + ids[j] * g.inner;
    const T* src = data + j * g.inner;
    for (int64_t i = 0; i < g.inner; ++i) row[i] += src[i];
  }
}

template <typename T>
class UnsortedSegmentSumOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(SegmentGeometry g, PrepareSegmentSum(ctx, &out));
    const Tensor& ids = ctx.input(1);
    if (ids.dtype() == DT_INT32) {
      SegmentSum(g, ctx.input(0).base<T>(), ids.base<int32_t>(), out->base<T>());
    } else {
      SegmentSum(g, ctx.input(0).base<T>(), ids.base<int64_t>(), out->base<T>());
    }
    return absl::OkStatus();
  }
};

RILL_REGISTER_KERNEL("Gather", DEVICE_CPU, "", DT_INVALID, GatherOp);
RILL_REGISTER_KERNEL("GatherV2", DEVICE_CPU, "", DT_INVALID, GatherOp);
#define RILL_REG_SEGMENT_SUM(T, unused)                                                 \
  RILL_REGISTER_KERNEL("UnsortedSegmentSum", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       UnsortedSegmentSumOp<T>);
RILL_FOR_NUMBER_TYPES(RILL_REG_SEGMENT_SUM, _)
#undef RILL_REG_SEGMENT_SUM

}  // namespace
}  // namespace rill::cpu
