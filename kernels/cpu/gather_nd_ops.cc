// CPU kernels of GatherNd (slices moved by their size in bytes: one kernel for every dtype)
// and ScatterNd (slices summed), over the flat slice numbers of core/gather_nd.h.
#include <algorithm>
#include <cstring>

#include "rill/core/gather_nd.h"

namespace rill::cpu {
namespace {

class GatherNdOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    Tensor flat;
    RILL_ASSIGN_OR_RETURN(const NdGeometry g, PrepareGatherNd(ctx, &out, &flat));
    const size_t row = static_cast<size_t>(g.inner) * DataTypeSize(out->dtype());
    if (row == 0) return absl::OkStatus();
    const char* src = static_cast<const char*>(ctx.input(0).data());
    char* dst = static_cast<char*>(out->data());
    const int64_t* at = flat.base<int64_t>();
    for (int64_t r = 0; r < g.rows; ++r) std::memcpy(dst + r * row, src + at[r] * row, row);
    return absl::OkStatus();
  }
};

template <typename T>
class ScatterNdOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    Tensor flat;
    RILL_ASSIGN_OR_RETURN(const NdGeometry g, PrepareScatterNd(ctx, &out, &flat));
    T* o = out->base<T>();
    std::fill(o, o + out->NumElements(), T(0));
    const T* u = ctx.input(1).base<T>();
    const int64_t* at = flat.base<int64_t>();
    for (int64_t r = 0; r < g.rows; ++r) {
      T* slice = o + at[r] * g.inner;
      for (int64_t i = 0; i < g.inner; ++i) slice[i] += u[r * g.inner + i];
    }
    return absl::OkStatus();
  }
};

RILL_REGISTER_KERNEL("GatherNd", DEVICE_CPU, "", DT_INVALID, GatherNdOp);
#define RILL_REG_SCATTER_ND(T, unused) \
  RILL_REGISTER_KERNEL("ScatterNd", DEVICE_CPU, "T", DataTypeToEnum<T>::value, ScatterNdOp<T>);
RILL_FOR_NUMBER_TYPES(RILL_REG_SCATTER_ND, _)

}  // namespace
}  // namespace rill::cpu
