// CPU kernels of the segment reductions (core/segment.h; UnsortedSegmentSum's is in
// gather_ops.cc): each output row combines its segment's data rows a row at a time, with
// core/segment_row.h's formulas (the GPU kernels' too).
#include <algorithm>

#include "rill/core/segment.h"

namespace rill::cpu {
namespace {

template <SegmentReduction R, typename T>
void ReduceSegment(const SegmentLists& l, const T* data, const T* weights, int64_t s, T* o) {
  const int64_t begin = l.offset()[s], end = l.offset()[s + 1], inner = l.inner;
  for (int64_t i = 0; i < inner; ++i)
    o[i] = SegmentEntry(data, l.rows.data(), weights, inner, begin, i);
  for (int64_t k = begin + 1; k < end; ++k) {
    const T* x = data + l.rows[k] * inner;
    if (weights == nullptr) {
      for (int64_t i = 0; i < inner; ++i) o[i] = SegmentCombine<R>(o[i], x[i]);
    } else {
      const T w = weights[k];
      for (int64_t i = 0; i < inner; ++i) o[i] = SegmentCombine<R>(o[i], static_cast<T>(w * x[i]));
    }
  }
  if constexpr (R == SegmentReduction::kMean || R == SegmentReduction::kSqrtN) {
    for (int64_t i = 0; i < inner; ++i) o[i] = SegmentFinish<R>(o[i], end - begin);
  }
}

template <SegmentFamily F, SegmentReduction R, typename T>
class SegmentOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(SegmentLists l, PrepareSegments(ctx, F, R, &out));
    if (out->NumElements() == 0) return absl::OkStatus();
    const std::vector<T> weights(l.weights.begin(), l.weights.end());
    const T empty = EmptySegmentValue<T>(R, F == SegmentFamily::kUnsorted);
    const T* data = ctx.input(0).base<T>();
    T* o = out->base<T>();
    for (int64_t s = 0; s < l.segments; ++s, o += l.inner) {
      if (l.offset()[s] == l.offset()[s + 1]) {
        std::fill(o, o + l.inner, empty);
      } else {
        ReduceSegment<CombineOf(F, R)>(l, data, weights.empty() ? nullptr : weights.data(), s, o);
      }
    }
    return absl::OkStatus();
  }
};

#define RILL_REG_SEGMENT(T, op, family, r)                            \
  RILL_REGISTER_KERNEL(op, DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       SegmentOp<SegmentFamily::family, SegmentReduction::r, T>);
#define RILL_REG_SEGMENT_OP(op, family, r, types) \
  RILL_FOR_##types##_TYPES(RILL_REG_SEGMENT, op, family, r)
RILL_FOR_SEGMENT_OPS(RILL_REG_SEGMENT_OP)

}  // namespace
}  // namespace rill::cpu
