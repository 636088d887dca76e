// CPU kernels of the variable scatters (ops/variable_scatter_ops.cc): under the variable's
// lock, every index checked first (core/gather_nd.h) so that a bad one changes nothing,
// then the value updated in place (copied first when a reader still holds it, as Assign
// does), each row combined in indices' order by core/scatter_row.h's rule.
#include <cstring>
#include <mutex>

#include "rill/core/gather_nd.h"
#include "rill/core/kernel.h"
#include "rill/core/scatter_row.h"

namespace rill::cpu {
namespace {

// An integer division by zero would trap: refused before anything changes.
template <typename T>
absl::Status CheckDivisors(const Node& node, const Tensor& updates) {
  if constexpr (std::is_integral_v<T>) {
    const T* u = updates.base<T>();
    for (int64_t i = 0; i < updates.NumElements(); ++i) {
      if (u[i] == T(0)) {
        return errors::InvalidArgument(node.DebugName(), ": update ", i,
                                       " is an integer division by zero");
      }
    }
  }
  return absl::OkStatus();
}

template <typename T, ScatterKind K, bool kNd>
class VariableScatterOp : public OpKernel {
 public:
  explicit VariableScatterOp(OpKernelConstruction& c) : OpKernel(c) {
    const Node& v = *c.node().input(0).node;
    var_ = c.resources()->LookupOrCreateVar(v.name(), v.output_type(0), v.output_shape(0));
  }

  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& updates = ctx.input(2);
    std::lock_guard<std::mutex> lock(var_->mu());
    Tensor flat;
    RILL_ASSIGN_OR_RETURN(const NdGeometry g, PrepareVariableScatter(ctx, *var_, kNd, &flat));
    if constexpr (K == ScatterKind::kDiv) {
      RILL_RETURN_IF_ERROR(CheckDivisors<T>(node(), updates));
    }
    Tensor& cur = var_->value();
    if (!cur.RefCountIsOne()) {  // a reader holds the old value: update a copy
      RILL_ASSIGN_OR_RETURN(Tensor copy,
                            Tensor::Create(cur.dtype(), cur.shape(), ctx.device()->allocator()));
      if (cur.TotalBytes() > 0) std::memcpy(copy.data(), cur.data(), cur.TotalBytes());
      cur = std::move(copy);
    }
    T* o = cur.base<T>();
    const T* u = updates.base<T>();
    const int64_t* at = flat.base<int64_t>();
    const int64_t step = updates.dims() == 0 ? 0 : 1;  // a scalar serves every element
    for (int64_t r = 0; r < g.rows; ++r) {
      T* slice = o + at[r] * g.inner;
      for (int64_t i = 0; i < g.inner; ++i) {
        slice[i] = ScatterCombine<K, T>(slice[i], u[(r * g.inner + i) * step]);
      }
    }
    ctx.set_output(0, cur);
    return absl::OkStatus();
  }

 private:
  Var* var_;
};

#define RILL_REG_VARIABLE_SCATTER(T, NAME, KIND, ND)                    \
  RILL_REGISTER_KERNEL(NAME, DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       VariableScatterOp<T, KIND, ND>);
#define RILL_REG_VARIABLE_SCATTERS(T, unused)                           \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterAdd", ScatterKind::kAdd, false)  \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterSub", ScatterKind::kSub, false)  \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterMul", ScatterKind::kMul, false)  \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterDiv", ScatterKind::kDiv, false)  \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterMin", ScatterKind::kMin, false)  \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterMax", ScatterKind::kMax, false)  \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterNdAdd", ScatterKind::kAdd, true) \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterNdSub", ScatterKind::kSub, true)
#define RILL_REG_VARIABLE_SCATTER_UPDATES(T, unused)                         \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterUpdate", ScatterKind::kUpdate, false) \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterNdUpdate", ScatterKind::kUpdate, true)
RILL_FOR_NUMBER_TYPES(RILL_REG_VARIABLE_SCATTERS, 0)
RILL_FOR_ALL_TYPES(RILL_REG_VARIABLE_SCATTER_UPDATES, 0)

}  // namespace
}  // namespace rill::cpu
