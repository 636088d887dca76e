// GPU kernels of RandomUniformInt and Multinomial (random_draw.cu): the same numbers as
// the CPU's for the same seeds. Their scalar inputs are read on the host. While a step is
// recorded they read their stream's counter from the device (DeviceBase::ReplayCounter),
// so every replay draws anew.
#include "rill/core/kernel_util.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
class RandomUniformIntGpu : public RandomKernelBase {
 public:
  explicit RandomUniformIntGpu(OpKernelConstruction& c) : RandomKernelBase(c) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    T lo;
    uint64_t range;
    RILL_ASSIGN_OR_RETURN(const RandomDraw draw, PrepareUniformInt<T>(ctx, &out, &lo, &range));
    RILL_CUDA_CHECK(LaunchRandomUniformInt<T>(out->base<T>(), out->NumElements(), lo, range, key(),
                                              draw.base, draw.recorded, ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
  bool AdvancesThroughReplayCounters() const override { return true; }
};

template <typename T>
class MultinomialGpu : public RandomKernelBase {
 public:
  explicit MultinomialGpu(OpKernelConstruction& c)
      : RandomKernelBase(c), int32_(c.node().attr<DataType>("output_dtype") == DT_INT32) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const MultinomialDraw m, PrepareMultinomial(ctx, &out));
    const T* logits = ctx.input(0).base<T>();
    cudaStream_t s = ContextOf(ctx)->stream;
    if (int32_) {
      RILL_CUDA_CHECK(
          (LaunchMultinomial<T, int32_t>(logits, out->base<int32_t>(), m.batch, m.classes,
                                         m.samples, key(), m.draw.base, m.draw.recorded, s)));
    } else {
      RILL_CUDA_CHECK(
          (LaunchMultinomial<T, int64_t>(logits, out->base<int64_t>(), m.batch, m.classes,
                                         m.samples, key(), m.draw.base, m.draw.recorded, s)));
    }
    return absl::OkStatus();
  }
  bool AdvancesThroughReplayCounters() const override { return true; }

 private:
  bool int32_;
};

RILL_REGISTER_KERNEL_HOST_INPUTS("RandomUniformInt", DEVICE_GPU, "Tout", DT_INT32,
                                 (std::vector<int>{0, 1, 2}), RandomUniformIntGpu<int32_t>);
RILL_REGISTER_KERNEL_HOST_INPUTS("RandomUniformInt", DEVICE_GPU, "Tout", DT_INT64,
                                 (std::vector<int>{0, 1, 2}), RandomUniformIntGpu<int64_t>);
RILL_REGISTER_KERNEL_HOST_INPUTS("Multinomial", DEVICE_GPU, "T", DT_FLOAT, {1},
                                 MultinomialGpu<float>);
RILL_REGISTER_KERNEL_HOST_INPUTS("Multinomial", DEVICE_GPU, "T", DT_DOUBLE, {1},
                                 MultinomialGpu<double>);

}  // namespace
}  // namespace rill::gpu
