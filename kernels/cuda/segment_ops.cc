// GPU kernels of the segment reductions (core/segment.h; UnsortedSegmentSum's is in
// gather_ops.cc). The ids and indices are read and checked on the host, which lays out the
// lists; the lists (and the gradients' weights) are uploaded for segment.cu.
#include "rill/core/segment.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T, typename V>
absl::StatusOr<Tensor> Upload(const OpKernelContext& ctx, const std::vector<V>& v,
                              const char* what) {
  Tensor host(DataTypeToEnum<T>::value, TensorShape({static_cast<int64_t>(v.size())}));
  T* p = host.base<T>();
  for (size_t i = 0; i < v.size(); ++i) p[i] = static_cast<T>(v[i]);
  return UploadHostInput(ctx, host, what);
}

template <SegmentFamily F, SegmentReduction R, typename T>
class SegmentGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(SegmentLists l, PrepareSegments(ctx, F, R, &out));
    if (out->NumElements() == 0) return absl::OkStatus();
    RILL_ASSIGN_OR_RETURN(Tensor offsets, UploadHostInput(ctx, l.offsets, "segment offsets"));
    RILL_ASSIGN_OR_RETURN(Tensor rows, Upload<int64_t>(ctx, l.rows, "segment rows"));
    Tensor weights;
    if (!l.weights.empty()) {
      RILL_ASSIGN_OR_RETURN(weights, Upload<T>(ctx, l.weights, "segment weights"));
    }
    RILL_CUDA_CHECK(LaunchSegmentReduce(
        CombineOf(F, R), ctx.input(0).base<T>(), offsets.base<int64_t>(), rows.base<int64_t>(),
        l.weights.empty() ? nullptr : weights.base<T>(), l.segments, l.inner,
        EmptySegmentValue<T>(R, F == SegmentFamily::kUnsorted), out->base<T>(),
        ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

// Every input past data (ids, indices, counts) is read on the host.
#define RILL_REG_SEGMENT_GPU(T, op, family, r)                                    \
  RILL_REGISTER_KERNEL_HOST_INPUTS(op, DEVICE_GPU, "T", DataTypeToEnum<T>::value, \
                                   (std::vector<int>{1, 2, 3}),                   \
                                   SegmentGpu<SegmentFamily::family, SegmentReduction::r, T>);
#define RILL_REG_SEGMENT_OP(op, family, r, types) \
  RILL_FOR_GPU_##types##_TYPES(RILL_REG_SEGMENT_GPU, op, family, r)
RILL_FOR_SEGMENT_OPS(RILL_REG_SEGMENT_OP)

}  // namespace
}  // namespace rill::gpu
