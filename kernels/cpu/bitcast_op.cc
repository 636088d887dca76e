// Bitcast on the CPU: the input's bytes copied into an output of the new dtype and the
// shape core/bitcast.h gives (the same number of bytes).
#include <cstring>

#include "rill/core/bitcast.h"
#include "rill/core/kernel.h"
#include "rill/core/status.h"

namespace rill {
namespace {

class BitcastOp : public OpKernel {
 public:
  explicit BitcastOp(OpKernelConstruction& c) : OpKernel(c), to_(c.node().attr<DataType>("type")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(PartialTensorShape shape,
                          BitcastShape(PartialTensorShape(x.shape()), x.dtype(), to_));
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape, shape.AsTensorShape());
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, out_shape, &out));
    if (x.TotalBytes() > 0) std::memcpy(out->data(), x.data(), x.TotalBytes());
    return absl::OkStatus();
  }

 private:
  DataType to_;
};

}  // namespace

RILL_REGISTER_KERNEL("Bitcast", DEVICE_CPU, "", DT_INVALID, BitcastOp);

}  // namespace rill
