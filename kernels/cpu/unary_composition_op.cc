// CPU kernel of _UnaryOpsComposition: the listed ops' functors (the same the standalone
// ops' kernels use, so each step rounds as that op does) applied in order to blocks of the
// tensor small enough to stay in cache, so the chain makes one pass over memory.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "rill/core/point_activation.h"
#include "rill/core/unary_composition.h"
#include "rill/kernels/cpu/cwise_kernels.h"

namespace rill::cpu {
namespace {
using namespace cwise;  // NOLINT(build/namespaces): the functors

template <typename T>
using Block = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <typename T>
using Step = void (*)(Block<T>&);

template <typename T, typename F>
void Apply(Block<T>& b) {
  b = F{}(b);
}

template <typename T, PointActivation kAct>
void Activation(Block<T>& b) {
  b = b.unaryExpr([](T v) { return ApplyPointActivation<kAct, T>(v, T(0)); });
}

// The step of each composable op (core/unary_composition.h lists the same names).
template <typename T>
const absl::flat_hash_map<std::string, Step<T>>& Steps() {
#define RILL_MATH_STEP(NAME, KIND) {NAME, &Apply<T, UnaryMathF<KIND>>},
  static const auto* steps = new absl::flat_hash_map<std::string, Step<T>>{
      RILL_FOR_UNARY_MATH_OPS(RILL_MATH_STEP) RILL_FOR_UNARY_MATH_ALIASES(RILL_MATH_STEP)  //
      {"Inv", &Apply<T, UnaryMathF<UnaryMath::kReciprocal>>},
      {"Abs", &Apply<T, AbsF>},
      {"Neg", &Apply<T, NegF>},
      {"Square", &Apply<T, SquareF>},
      {"Sqrt", &Apply<T, SqrtF>},
      {"Exp", &Apply<T, ExpF>},
      {"Log", &Apply<T, LogF>},
      {"Sign", &Apply<T, SignF>},
      {"Relu", &Apply<T, ReluF>},
      {"Sigmoid", &Apply<T, SigmoidF>},
      {"Tanh", &Apply<T, TanhF>},
      {"Relu6", &Activation<T, PointActivation::kRelu6>},
      {"Elu", &Activation<T, PointActivation::kElu>},
      {"Selu", &Activation<T, PointActivation::kSelu>}};
#undef RILL_MATH_STEP
  return *steps;
}

template <typename T>
class UnaryOpsCompositionOp : public OpKernel {
 public:
  explicit UnaryOpsCompositionOp(OpKernelConstruction& c) : OpKernel(c) {
    const auto& names = c.node().attr<std::vector<std::string>>("op_names");
    status_ = CheckComposableUnaryOps(names);
    for (const std::string& name : names) {
      const auto it = Steps<T>().find(name);
      if (it != Steps<T>().end()) steps_.push_back(it->second);
    }
  }
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_RETURN_IF_ERROR(status_);
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.forward_or_allocate_output(0, 0, x.shape(), &out));
    if (out->data() != x.data()) std::memcpy(out->data(), x.data(), x.TotalBytes());
    constexpr int64_t kBlock = 4096;  // 32 KiB of doubles: one L1 cache's worth
    T* y = out->base<T>();
    for (int64_t at = 0, n = out->NumElements(); at < n; at += kBlock) {
      Block<T> block(y + at, std::min(kBlock, n - at));
      for (Step<T> step : steps_) step(block);
    }
    return absl::OkStatus();
  }

 private:
  absl::Status status_;
  std::vector<Step<T>> steps_;
};

RILL_REGISTER_KERNEL("_UnaryOpsComposition", DEVICE_CPU, "T", DT_FLOAT,
                     UnaryOpsCompositionOp<float>);
RILL_REGISTER_KERNEL("_UnaryOpsComposition", DEVICE_CPU, "T", DT_DOUBLE,
                     UnaryOpsCompositionOp<double>);

}  // namespace
}  // namespace rill::cpu
