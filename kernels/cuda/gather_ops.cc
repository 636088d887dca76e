// GPU kernels of Gather, GatherV2, UnsortedSegmentSum, GatherNd, ScatterNd and the
// TensorScatter ops (the last over core/gather_nd.h's flat slice numbers, as a gather of
// rows, a segment sum and scatter.cu's grouped combination). Indices and
// segment ids are read on the host, where core/gather.h validates every one (an index out of range
// is an error, where TensorFlow's GPU kernels write zeros), then uploaded for gather.cu;
// Gather's and UnsortedSegmentSum's through the checked upload, so a recorded step checks
// and copies each run's indices before its launch.
#include "rill/core/gather.h"
#include "rill/core/gather_nd.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"
#include "rill/kernels/cuda/scatter_rows.h"

namespace rill::gpu {
namespace {

class GatherGpu : public OpKernel {
 public:
  explicit GatherGpu(OpKernelConstruction& c) : OpKernel(c), batch_dims_(BatchDimsAttr(c)) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(GatherGeometry g,
                          PrepareGather(ctx, batch_dims_, &out, /*check_indices=*/false));
    RILL_ASSIGN_OR_RETURN(Tensor idx, ctx.UploadCheckedHostInput(1, [n = g.n](const Tensor& t) {
      return CheckIndexValues(t, n, false, "indices");
    }));
    if (out->NumElements() == 0) return absl::OkStatus();
    const size_t es = DataTypeSize(out->dtype());
    const void* params = ctx.input(0).data();
    cudaStream_t s = ContextOf(ctx)->stream;
    if (idx.dtype() == DT_INT32) {
      RILL_CUDA_CHECK(LaunchGather(g.batch, g.outer, g.n, g.k, g.inner, es, params,
                                   idx.base<int32_t>(), out->data(), s));
    } else {
      RILL_CUDA_CHECK(LaunchGather(g.batch, g.outer, g.n, g.k, g.inner, es, params,
                                   idx.base<int64_t>(), out->data(), s));
    }
    return absl::OkStatus();
  }
  bool UploadsCheckedHostInput(int input) const override { return input == 1; }

 private:
  int64_t batch_dims_;
};

template <typename T>
class UnsortedSegmentSumGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(SegmentGeometry g, PrepareSegmentSum(ctx, &out, /*check_ids=*/false));
    RILL_ASSIGN_OR_RETURN(Tensor ids,
                          ctx.UploadCheckedHostInput(1, [n = g.segments](const Tensor& t) {
                            return CheckIndexValues(t, n, true, "segment_ids");
                          }));
    cudaStream_t s = ContextOf(ctx)->stream;
    if (out->TotalBytes() > 0)
      RILL_CUDA_CHECK(cudaMemsetAsync(out->data(), 0, out->TotalBytes(), s));
    if (g.ids * g.inner == 0) return absl::OkStatus();
    const T* data = ctx.input(0).base<T>();
    if (ids.dtype() == DT_INT32) {
      RILL_CUDA_CHECK(
          LaunchSegmentSum(data, ids.base<int32_t>(), g.ids, g.inner, out->base<T>(), s));
    } else {
      RILL_CUDA_CHECK(
          LaunchSegmentSum(data, ids.base<int64_t>(), g.ids, g.inner, out->base<T>(), s));
    }
    return absl::OkStatus();
  }
  bool UploadsCheckedHostInput(int input) const override { return input == 1; }
};

class GatherNdGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    Tensor flat;
    RILL_ASSIGN_OR_RETURN(const NdGeometry g, PrepareGatherNd(ctx, &out, &flat));
    if (out->NumElements() == 0) return absl::OkStatus();
    RILL_ASSIGN_OR_RETURN(Tensor idx, UploadHostInput(ctx, flat, "indices"));
    RILL_CUDA_CHECK(LaunchGather(int64_t{1}, int64_t{1}, g.slices, g.rows, g.inner,
                                 DataTypeSize(out->dtype()), ctx.input(0).data(),
                                 idx.base<int64_t>(), out->data(), ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

template <typename T>
class ScatterNdGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    Tensor flat;
    RILL_ASSIGN_OR_RETURN(const NdGeometry g, PrepareScatterNd(ctx, &out, &flat));
    cudaStream_t s = ContextOf(ctx)->stream;
    if (out->TotalBytes() > 0)
      RILL_CUDA_CHECK(cudaMemsetAsync(out->data(), 0, out->TotalBytes(), s));
    if (g.rows * g.inner == 0) return absl::OkStatus();
    RILL_ASSIGN_OR_RETURN(Tensor ids, UploadHostInput(ctx, flat, "indices"));
    RILL_CUDA_CHECK(LaunchSegmentSum(ctx.input(1).base<T>(), ids.base<int64_t>(), g.rows, g.inner,
                                     out->base<T>(), s));
    return absl::OkStatus();
  }
};

// tensor copied on the device, its rows grouped by slice on the host (where indices are
// checked), then every slice's rows applied in order by one thread per element.
template <typename T, ScatterKind K>
class TensorScatterGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    Tensor flat;
    RILL_ASSIGN_OR_RETURN(const NdGeometry g, PrepareTensorScatter(ctx, &out, &flat));
    const Tensor& tensor = ctx.input(0);
    cudaStream_t s = ContextOf(ctx)->stream;
    if (out->data() != tensor.data() && tensor.TotalBytes() > 0) {
      RILL_CUDA_CHECK(cudaMemcpyAsync(out->data(), tensor.data(), tensor.TotalBytes(),
                                      cudaMemcpyDeviceToDevice, s));
    }
    return ScatterRowsGpu<T>(ctx, K, flat, g.inner, ctx.input(2).base<T>(), out->base<T>());
  }
};

RILL_REGISTER_KERNEL_HOST_INPUTS("GatherNd", DEVICE_GPU, "", DT_INVALID, {1}, GatherNdGpu);
RILL_REGISTER_KERNEL_HOST_INPUTS("Gather", DEVICE_GPU, "", DT_INVALID, {1}, GatherGpu);
RILL_REGISTER_KERNEL_HOST_INPUTS("GatherV2", DEVICE_GPU, "", DT_INVALID, (std::vector<int>{1, 2}),
                                 GatherGpu);
#define RILL_REG_SEGMENT_SUM(T)                                                            \
  RILL_REGISTER_KERNEL_HOST_INPUTS("UnsortedSegmentSum", DEVICE_GPU, "T",                  \
                                   DataTypeToEnum<T>::value, (std::vector<int>{1, 2}),     \
                                   UnsortedSegmentSumGpu<T>);                              \
  RILL_REGISTER_KERNEL_HOST_INPUTS("ScatterNd", DEVICE_GPU, "T", DataTypeToEnum<T>::value, \
                                   (std::vector<int>{0, 2}), ScatterNdGpu<T>);
RILL_REG_SEGMENT_SUM(float)
RILL_REG_SEGMENT_SUM(double)
RILL_REG_SEGMENT_SUM(int64_t)
#undef RILL_REG_SEGMENT_SUM
#define RILL_REG_TENSOR_SCATTER(T, NAME, KIND)                                           \
  RILL_REGISTER_KERNEL_HOST_INPUTS(NAME, DEVICE_GPU, "T", DataTypeToEnum<T>::value, {1}, \
                                   TensorScatterGpu<T, KIND>);
#define RILL_REG_TENSOR_SCATTERS(T, unused)                               \
  RILL_REG_TENSOR_SCATTER(T, "TensorScatterUpdate", ScatterKind::kUpdate) \
  RILL_REG_TENSOR_SCATTER(T, "TensorScatterAdd", ScatterKind::kAdd)       \
  RILL_REG_TENSOR_SCATTER(T, "TensorScatterSub", ScatterKind::kSub)       \
  RILL_REG_TENSOR_SCATTER(T, "TensorScatterMin", ScatterKind::kMin)       \
  RILL_REG_TENSOR_SCATTER(T, "TensorScatterMax", ScatterKind::kMax)
RILL_FOR_FLOAT_TYPES(RILL_REG_TENSOR_SCATTERS, 0)
RILL_REG_TENSOR_SCATTERS(int64_t, 0)

}  // namespace
}  // namespace rill::gpu
