// CPU kernels of InTopK (k an attr) and InTopKV2 (k an input): core/in_top_k.h's test per
// targets dtype.
#include "rill/core/in_top_k.h"

namespace rill::cpu {
namespace {

template <typename TargetT, bool kV2>
class InTopKOp : public OpKernel {
 public:
  explicit InTopKOp(OpKernelConstruction& c)
      : OpKernel(c), k_(kV2 ? 0 : c.node().attr<int64_t>("k")) {}
  absl::Status Compute(OpKernelContext& ctx) override { return InTopK<TargetT>(ctx, kV2, k_); }

 private:
  const int64_t k_;
};

#define RILL_REG_IN_TOP_K(T, unused)                                                             \
  RILL_REGISTER_KERNEL("InTopK", DEVICE_CPU, "T", DataTypeToEnum<T>::value, InTopKOp<T, false>); \
  RILL_REGISTER_KERNEL("InTopKV2", DEVICE_CPU, "T", DataTypeToEnum<T>::value, InTopKOp<T, true>);
RILL_REG_IN_TOP_K(int32_t, _)
RILL_REG_IN_TOP_K(int64_t, _)
#undef RILL_REG_IN_TOP_K

}  // namespace
}  // namespace rill::cpu
