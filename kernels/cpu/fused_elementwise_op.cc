// CPU kernel of _FusedElementwise: the program (core/fused_elementwise.h) over its inputs
// through ElementwiseProgram (kernels/cpu/elementwise_program.h).
#include <optional>

#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"
#include "rill/kernels/cpu/elementwise_program.h"

namespace rill::cpu {
namespace {

template <typename T>
class FusedElementwiseOp : public OpKernel {
 public:
  explicit FusedElementwiseOp(OpKernelConstruction& c) : OpKernel(c) {
    auto steps = ParseElementwiseProgram(c.node().attr<std::vector<int64_t>>("program"),
                                         c.node().num_inputs());
    if (steps.ok()) {
      program_.emplace(*std::move(steps), c.node().num_inputs());
    } else {
      status_ = steps.status();
    }
  }
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_RETURN_IF_ERROR(status_);
    const int n = ctx.num_inputs();
    TensorShape shape = ctx.input(0).shape();
    for (int i = 1; i < n; ++i) {
      RILL_ASSIGN_OR_RETURN(shape, shape_fns::Broadcast(shape, ctx.input(i).shape()));
    }
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &out));
    program_->Run([&](int i) -> const Tensor& { return ctx.input(i); }, shape, out->base<T>());
    return absl::OkStatus();
  }

 private:
  absl::Status status_;
  std::optional<ElementwiseProgram<T>> program_;
};

RILL_REGISTER_KERNEL("_FusedElementwise", DEVICE_CPU, "T", DT_FLOAT, FusedElementwiseOp<float>);
RILL_REGISTER_KERNEL("_FusedElementwise", DEVICE_CPU, "T", DT_DOUBLE, FusedElementwiseOp<double>);

}  // namespace
}  // namespace rill::cpu
