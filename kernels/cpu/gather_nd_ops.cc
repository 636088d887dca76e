// CPU kernels of GatherNd (slices moved by their size in bytes: one kernel for every dtype),
// ScatterNd (slices summed) and the TensorScatter ops (core/scatter_row.h's combinations),
// over the flat slice numbers of core/gather_nd.h.
#include <algorithm>
#include <cstring>

#include "rill/core/gather_nd.h"
#include "rill/core/scatter_row.h"

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

// tensor copied, then each row's update combined into its slice in indices' order.
template <typename T, ScatterKind K>
class TensorScatterOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    Tensor flat;
    RILL_ASSIGN_OR_RETURN(const NdGeometry g, PrepareTensorScatter(ctx, &out, &flat));
    const Tensor& tensor = ctx.input(0);
    if (out->data() != tensor.data() && tensor.TotalBytes() > 0) {
      std::memcpy(out->data(), tensor.data(), tensor.TotalBytes());
    }
    T* o = out->base<T>();
    const T* u = ctx.input(2).base<T>();
    const int64_t* at = flat.base<int64_t>();
    for (int64_t r = 0; r < g.rows; ++r) {
      T* slice = o + at[r] * g.inner;
      for (int64_t i = 0; i < g.inner; ++i) {
        slice[i] = ScatterCombine<K, T>(slice[i], u[r * g.inner + i]);
      }
    }
    return absl::OkStatus();
  }
};

RILL_REGISTER_KERNEL("GatherNd", DEVICE_CPU, "", DT_INVALID, GatherNdOp);
#define RILL_REG_SCATTER_ND(T, unused) \
  RILL_REGISTER_KERNEL("ScatterNd", DEVICE_CPU, "T", DataTypeToEnum<T>::value, ScatterNdOp<T>);
RILL_FOR_NUMBER_TYPES(RILL_REG_SCATTER_ND, _)
#define RILL_REG_TENSOR_SCATTER(T, NAME, KIND) \
  RILL_REGISTER_KERNEL(NAME, DEVICE_CPU, "T", DataTypeToEnum<T>::value, TensorScatterOp<T, KIND>);
RILL_FOR_ALL_TYPES(RILL_REG_TENSOR_SCATTER, "TensorScatterUpdate", ScatterKind::kUpdate)
RILL_FOR_NUMBER_TYPES(RILL_REG_TENSOR_SCATTER, "TensorScatterAdd", ScatterKind::kAdd)
RILL_FOR_NUMBER_TYPES(RILL_REG_TENSOR_SCATTER, "TensorScatterSub", ScatterKind::kSub)
RILL_FOR_NUMBER_TYPES(RILL_REG_TENSOR_SCATTER, "TensorScatterMin", ScatterKind::kMin)
RILL_FOR_NUMBER_TYPES(RILL_REG_TENSOR_SCATTER, "TensorScatterMax", ScatterKind::kMax)

}  // namespace
}  // namespace rill::cpu
