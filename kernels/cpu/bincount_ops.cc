// CPU kernels of Bincount and DenseBincount: core/bincount.h's counting per weights dtype.
#include "rill/core/bincount.h"

namespace rill::cpu {
namespace {

template <typename T, bool kDense>
class BincountOp : public OpKernel {
 public:
  explicit BincountOp(OpKernelConstruction& c)
      : OpKernel(c), binary_(kDense && c.node().attr<bool>("binary_output")) {}
  absl::Status Compute(OpKernelContext& ctx) override { return Bincount<T>(ctx, kDense, binary_); }

 private:
  const bool binary_;
};

#define RILL_REG_BINCOUNT(T, unused)                                               \
  RILL_REGISTER_KERNEL("Bincount", DEVICE_CPU, "T", DataTypeToEnum<T>::value,      \
                       BincountOp<T, false>);                                      \
  RILL_REGISTER_KERNEL("DenseBincount", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       BincountOp<T, true>);
RILL_FOR_SIGNED_TYPES(RILL_REG_BINCOUNT, _)
#undef RILL_REG_BINCOUNT

}  // namespace
}  // namespace rill::cpu
