// GPU kernels of the variable scatters (ops/variable_scatter_ops.cc), as TensorScatter's on
// the GPU (gather_ops.cc): indices read and checked on the host, rows grouped by slice
// there, then scatter.cu's one thread per slice element applies each slice's rows in order
// to the variable's buffer (copied first when a reader still holds it); a scalar update is
// filled out to every scattered element first. Float and int64;
// ScatterDiv floats only (an integer divisor would have to come back to the host to be
// checked for zero: such a scatter runs on the CPU).
#include <mutex>

#include "rill/kernels/cuda/scatter_rows.h"

namespace rill::gpu {
namespace {

// The updates as one value per scattered element: a scalar update (TensorFlow's one value
// for every indexed row) filled out on the device, any other passed as it is.
template <typename T>
absl::StatusOr<Tensor> UpdateRows(OpKernelContext& ctx, const Tensor& updates, int64_t n) {
  if (updates.dims() != 0 || n <= 1) return updates;
  RILL_ASSIGN_OR_RETURN(
      Tensor rows, Tensor::Create(updates.dtype(), TensorShape({n}), ctx.device()->allocator()));
  RILL_CUDA_CHECK(LaunchFill<T>(updates.base<T>(), rows.base<T>(), n, ContextOf(ctx)->stream));
  return rows;
}

template <typename T, ScatterKind K, bool kNd>
class VariableScatterGpu : public OpKernel {
 public:
  explicit VariableScatterGpu(OpKernelConstruction& c) : OpKernel(c) {
    const Node& v = *c.node().input(0).node;
    var_ = c.resources()->LookupOrCreateVar(v.name(), v.output_type(0), v.output_shape(0));
  }

  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& updates = ctx.input(2);
    cudaStream_t s = ContextOf(ctx)->stream;
    std::lock_guard<std::mutex> lock(var_->mu());
    Tensor flat;
    RILL_ASSIGN_OR_RETURN(const NdGeometry g, PrepareVariableScatter(ctx, *var_, kNd, &flat));
    Tensor& cur = var_->value();
    if (!cur.RefCountIsOne()) {  // a reader holds the old value: update a copy
      RILL_ASSIGN_OR_RETURN(Tensor copy,
                            Tensor::Create(cur.dtype(), cur.shape(), ctx.device()->allocator()));
      if (cur.TotalBytes() > 0) {
        RILL_CUDA_CHECK(cudaMemcpyAsync(copy.data(), cur.data(), cur.TotalBytes(),
                                        cudaMemcpyDeviceToDevice, s));
      }
      cur = std::move(copy);
    }
    RILL_ASSIGN_OR_RETURN(const Tensor rows, UpdateRows<T>(ctx, updates, g.rows * g.inner));
    RILL_RETURN_IF_ERROR(ScatterRowsGpu<T>(ctx, K, flat, g.inner, rows.base<T>(), cur.base<T>()));
    ctx.set_output(0, cur);
    return absl::OkStatus();
  }

 private:
  Var* var_;
};

#define RILL_REG_VARIABLE_SCATTER(T, NAME, KIND, ND)                                     \
  RILL_REGISTER_KERNEL_HOST_INPUTS(NAME, DEVICE_GPU, "T", DataTypeToEnum<T>::value, {1}, \
                                   VariableScatterGpu<T, KIND, ND>);
#define RILL_REG_VARIABLE_SCATTERS(T, unused)                                 \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterUpdate", ScatterKind::kUpdate, false)  \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterAdd", ScatterKind::kAdd, false)        \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterSub", ScatterKind::kSub, false)        \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterMul", ScatterKind::kMul, false)        \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterMin", ScatterKind::kMin, false)        \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterMax", ScatterKind::kMax, false)        \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterNdUpdate", ScatterKind::kUpdate, true) \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterNdAdd", ScatterKind::kAdd, true)       \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterNdSub", ScatterKind::kSub, true)
#define RILL_REG_VARIABLE_SCATTER_DIV(T, unused) \
  RILL_REG_VARIABLE_SCATTER(T, "ScatterDiv", ScatterKind::kDiv, false)
RILL_FOR_FLOAT_TYPES(RILL_REG_VARIABLE_SCATTERS, 0)
RILL_REG_VARIABLE_SCATTERS(int64_t, 0)
RILL_FOR_FLOAT_TYPES(RILL_REG_VARIABLE_SCATTER_DIV, 0)

}  // namespace
}  // namespace rill::gpu
