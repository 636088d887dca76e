// TopKV2 on the CPU: a partial sort of each row's indices by core/topk.h's order.
#include <algorithm>
#include <numeric>
#include <vector>

#include "rill/core/topk.h"
#include "rill/core/topk_prepare.h"

namespace rill::cpu {
namespace {

template <typename T>
class TopKOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor *values, *indices;
    RILL_ASSIGN_OR_RETURN(TopKGeometry g, PrepareTopK(ctx, &values, &indices));
    const T* x = ctx.input(0).base<T>();
    std::vector<int32_t> order(g.n);
    for (int64_t r = 0; r < g.rows; ++r) {
      const T* row = x + r * g.n;
      std::iota(order.begin(), order.end(), 0);
      std::partial_sort(order.begin(), order.begin() + g.k, order.end(),
                        [row](int32_t a, int32_t b) { return Before(row[a], a, row[b], b); });
      for (int64_t j = 0; j < g.k; ++j) {
        values->base<T>()[r * g.k + j] = row[order[j]];
        indices->base<int32_t>()[r * g.k + j] = order[j];
      }
    }
    return absl::OkStatus();
  }
};

#define RILL_REG_TOPK(T, unused) \
  RILL_REGISTER_KERNEL("TopKV2", DEVICE_CPU, "T", DataTypeToEnum<T>::value, TopKOp<T>);
RILL_FOR_NUMBER_TYPES(RILL_REG_TOPK, 0)
#undef RILL_REG_TOPK

}  // namespace
}  // namespace rill::cpu
