// GPU kernels of OneHot, of Transpose, ReverseV2, Reverse, Slice, Pad, BroadcastTo and ConcatV2, of
// Tile, Pack, Unpack, Split and SplitV, of the rearranging ops (core/rearrange_copy.h), and of
// StridedSlice and StridedSliceGrad: the strided copies planned by core/strided_copy.h,
// core/piece_copy.h and core/strided_slice.h (the CPU kernels' checks), run by copy.cu on the
// device's stream. perm, begin, size, end, strides, paddings, shape, multiples, size_splits and the
// axes are read on the host.
#include "rill/core/kernel_util.h"
#include "rill/core/piece_copy.h"
#include "rill/core/rearrange_copy.h"
#include "rill/core/strided_copy.h"
#include "rill/core/strided_slice.h"
#include "rill/kernels/cuda/copy_launch.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

// Enqueues `copy` from `src` into `dst` on the device's stream.
absl::Status Run(const OpKernelContext& ctx, const StridedCopy& copy, const Tensor& src,
                 Tensor* dst) {
  RILL_CUDA_CHECK(
      LaunchCopy(copy, DataTypeSize(src.dtype()), src.data(), dst->data(), ContextOf(ctx)->stream));
  return absl::OkStatus();
}

// Every element of `out` set to the scalar `value` (on the device): its bits, as the
// integer of its size (rill's dtypes are 1, 2, 4 or 8 bytes).
absl::Status Fill(const Tensor& value, Tensor* out, cudaStream_t stream) {
  const int64_t n = out->NumElements();
  switch (DataTypeSize(value.dtype())) {
    case 1:
      RILL_CUDA_CHECK(LaunchFill(static_cast<const uint8_t*>(value.data()),
                                 static_cast<uint8_t*>(out->data()), n, stream));
      break;
    case 2:
      RILL_CUDA_CHECK(LaunchFill(static_cast<const uint16_t*>(value.data()),
                                 static_cast<uint16_t*>(out->data()), n, stream));
      break;
    case 4:
      RILL_CUDA_CHECK(LaunchFill(static_cast<const int32_t*>(value.data()),
                                 static_cast<int32_t*>(out->data()), n, stream));
      break;
    case 8:
      RILL_CUDA_CHECK(LaunchFill(static_cast<const int64_t*>(value.data()),
                                 static_cast<int64_t*>(out->data()), n, stream));
      break;
    default:
      return errors::Unimplemented("PadV2 of ", DataTypeString(value.dtype()), " on the GPU");
  }
  return absl::OkStatus();
}

template <absl::StatusOr<CopyJob> (*kPrepare)(OpKernelContext&)>
class StridedCopyGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(CopyJob job, kPrepare(ctx));
    if (job.done) return absl::OkStatus();
    cudaStream_t stream = ContextOf(ctx)->stream;
    if (job.zero_fill && job.out->TotalBytes() > 0) {
      RILL_CUDA_CHECK(cudaMemsetAsync(job.out->data(), 0, job.out->TotalBytes(), stream));
    }
    if (job.fill >= 0) RILL_RETURN_IF_ERROR(Fill(ctx.input(job.fill), job.out, stream));
    return Run(ctx, job.copy, ctx.input(job.source), job.out);
  }
};

class ConcatGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(std::vector<StridedCopy> copies, PrepareConcat(ctx, &out));
    for (size_t i = 0; i < copies.size(); ++i) {
      RILL_RETURN_IF_ERROR(Run(ctx, copies[i], ctx.input(static_cast<int>(i)), out));
    }
    return absl::OkStatus();
  }
};

template <absl::StatusOr<PieceCopies> (*kPrepare)(OpKernelContext&)>
class PieceCopyGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(PieceCopies copies, kPrepare(ctx));
    for (const PieceCopy& p : copies) {
      if (p.input == PieceCopy::kZeroFill) {
        if (p.out->TotalBytes() == 0) continue;
        RILL_CUDA_CHECK(
            cudaMemsetAsync(p.out->data(), 0, p.out->TotalBytes(), ContextOf(ctx)->stream));
        continue;
      }
      RILL_RETURN_IF_ERROR(Run(ctx, p.copy, ctx.input(p.input), p.out));
    }
    return absl::OkStatus();
  }
};

// OneHot is keyed by T; the index type (uint8, int32, int64) is read per run.
template <typename T>
class OneHotGpu : public OpKernel {
 public:
  explicit OneHotGpu(OpKernelConstruction& c)
      : OpKernel(c), axis_(c.node().attr<int64_t>("axis")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const OneHotGeometry g, PrepareOneHot(ctx, axis_, &out));
    const Tensor& idx = ctx.input(0);
    const T* on = ctx.input(2).base<T>();
    const T* off = ctx.input(3).base<T>();
    cudaStream_t stream = ContextOf(ctx)->stream;
    switch (idx.dtype()) {
      case DT_UINT8:
        RILL_CUDA_CHECK(LaunchOneHot<T>(idx.base<uint8_t>(), on, off, out->base<T>(), g.outer,
                                        g.depth, g.inner, stream));
        break;
      case DT_INT32:
        RILL_CUDA_CHECK(LaunchOneHot<T>(idx.base<int32_t>(), on, off, out->base<T>(), g.outer,
                                        g.depth, g.inner, stream));
        break;
      default:
        RILL_CUDA_CHECK(LaunchOneHot<T>(idx.base<int64_t>(), on, off, out->base<T>(), g.outer,
                                        g.depth, g.inner, stream));
        break;
    }
    return absl::OkStatus();
  }

 private:
  int64_t axis_;
};

RILL_REGISTER_KERNEL_HOST_INPUTS("Transpose", DEVICE_GPU, "", DT_INVALID, {1},
                                 StridedCopyGpu<PrepareTranspose>);
RILL_REGISTER_KERNEL_HOST_INPUTS("ReverseV2", DEVICE_GPU, "", DT_INVALID, {1},
                                 StridedCopyGpu<PrepareReverse>);
RILL_REGISTER_KERNEL_HOST_INPUTS("Reverse", DEVICE_GPU, "", DT_INVALID, {1},
                                 StridedCopyGpu<PrepareReverseDims>);
RILL_REGISTER_KERNEL_HOST_INPUTS("Slice", DEVICE_GPU, "", DT_INVALID, (std::vector<int>{1, 2}),
                                 StridedCopyGpu<PrepareSlice>);
RILL_REGISTER_KERNEL_HOST_INPUTS("Pad", DEVICE_GPU, "", DT_INVALID, {1},
                                 StridedCopyGpu<PreparePad>);
RILL_REGISTER_KERNEL_HOST_INPUTS("PadV2", DEVICE_GPU, "", DT_INVALID, {1},
                                 StridedCopyGpu<PreparePadV2>);
RILL_REGISTER_KERNEL_HOST_INPUTS("BroadcastTo", DEVICE_GPU, "", DT_INVALID, {1},
                                 StridedCopyGpu<PrepareBroadcastTo>);
RILL_REGISTER_KERNEL_HOST_INPUTS("ConcatV2", DEVICE_GPU, "", DT_INVALID, {-1}, ConcatGpu);
RILL_REGISTER_KERNEL_HOST_INPUTS("StridedSlice", DEVICE_GPU, "", DT_INVALID,
                                 (std::vector<int>{1, 2, 3}), StridedCopyGpu<PrepareStridedSlice>);
RILL_REGISTER_KERNEL_HOST_INPUTS("StridedSliceGrad", DEVICE_GPU, "", DT_INVALID,
                                 (std::vector<int>{0, 1, 2, 3}),
                                 StridedCopyGpu<PrepareStridedSliceGrad>);
RILL_REGISTER_KERNEL_HOST_INPUTS("Tile", DEVICE_GPU, "", DT_INVALID, {1},
                                 PieceCopyGpu<PrepareTile>);
RILL_REGISTER_KERNEL("Pack", DEVICE_GPU, "", DT_INVALID, PieceCopyGpu<PreparePack>);
RILL_REGISTER_KERNEL("Unpack", DEVICE_GPU, "", DT_INVALID, PieceCopyGpu<PrepareUnpack>);
RILL_REGISTER_KERNEL_HOST_INPUTS("Split", DEVICE_GPU, "", DT_INVALID, {0},
                                 PieceCopyGpu<PrepareSplit>);
RILL_REGISTER_KERNEL_HOST_INPUTS("SplitV", DEVICE_GPU, "", DT_INVALID, (std::vector<int>{1, 2}),
                                 PieceCopyGpu<PrepareSplitV>);
RILL_REGISTER_KERNEL_HOST_INPUTS("Roll", DEVICE_GPU, "", DT_INVALID, (std::vector<int>{1, 2}),
                                 PieceCopyGpu<PrepareRoll>);
RILL_REGISTER_KERNEL_HOST_INPUTS("MirrorPad", DEVICE_GPU, "", DT_INVALID, {1},
                                 PieceCopyGpu<PrepareMirrorPad>);
RILL_REGISTER_KERNEL("SpaceToDepth", DEVICE_GPU, "", DT_INVALID, PieceCopyGpu<PrepareSpaceToDepth>);
RILL_REGISTER_KERNEL("DepthToSpace", DEVICE_GPU, "", DT_INVALID, PieceCopyGpu<PrepareDepthToSpace>);
RILL_REGISTER_KERNEL_HOST_INPUTS("SpaceToBatchND", DEVICE_GPU, "", DT_INVALID,
                                 (std::vector<int>{1, 2}), PieceCopyGpu<PrepareSpaceToBatchND>);
RILL_REGISTER_KERNEL_HOST_INPUTS("BatchToSpaceND", DEVICE_GPU, "", DT_INVALID,
                                 (std::vector<int>{1, 2}), PieceCopyGpu<PrepareBatchToSpaceND>);
RILL_REGISTER_KERNEL("Diag", DEVICE_GPU, "", DT_INVALID, PieceCopyGpu<PrepareDiag>);
RILL_REGISTER_KERNEL("DiagPart", DEVICE_GPU, "", DT_INVALID, PieceCopyGpu<PrepareDiagPart>);
RILL_REGISTER_KERNEL("MatrixDiag", DEVICE_GPU, "", DT_INVALID, PieceCopyGpu<PrepareMatrixDiag>);
RILL_REGISTER_KERNEL("MatrixDiagPart", DEVICE_GPU, "", DT_INVALID,
                     PieceCopyGpu<PrepareMatrixDiagPart>);
RILL_REGISTER_KERNEL("MatrixSetDiag", DEVICE_GPU, "", DT_INVALID,
                     PieceCopyGpu<PrepareMatrixSetDiag>);
#define RILL_REG_GPU_ONE_HOT(T, unused)                                                      \
  RILL_REGISTER_KERNEL_HOST_INPUTS("OneHot", DEVICE_GPU, "T", DataTypeToEnum<T>::value, {1}, \
                                   OneHotGpu<T>);
RILL_FOR_GPU_ALL_TYPES(RILL_REG_GPU_ONE_HOT, 0)

}  // namespace
}  // namespace rill::gpu
