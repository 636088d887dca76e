// CPU kernels of Tile, Pack, Unpack, Split and SplitV and of the rearranging ops (Roll,
// MirrorPad, the diagonal ops, ...): the strided copies planned by core/piece_copy.h and
// core/rearrange_copy.h, run on host memory for every dtype.
#include <cstring>

#include "rill/core/piece_copy.h"
#include "rill/core/rearrange_copy.h"

namespace rill::cpu {
namespace {

template <absl::StatusOr<PieceCopies> (*kPrepare)(OpKernelContext&)>
class PieceCopyOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(PieceCopies copies, kPrepare(ctx));
    for (const PieceCopy& p : copies) {
      if (p.input == PieceCopy::kZeroFill) {
        if (p.out->TotalBytes() > 0) std::memset(p.out->data(), 0, p.out->TotalBytes());
        continue;
      }
      const Tensor& src = ctx.input(p.input);
      RunStridedCopyOnHost(p.copy, src.data(), p.out->data(), DataTypeSize(src.dtype()));
    }
    return absl::OkStatus();
  }
};

RILL_REGISTER_KERNEL("Tile", DEVICE_CPU, "", DT_INVALID, PieceCopyOp<PrepareTile>);
RILL_REGISTER_KERNEL("Pack", DEVICE_CPU, "", DT_INVALID, PieceCopyOp<PreparePack>);
RILL_REGISTER_KERNEL("Unpack", DEVICE_CPU, "", DT_INVALID, PieceCopyOp<PrepareUnpack>);
RILL_REGISTER_KERNEL("Split", DEVICE_CPU, "", DT_INVALID, PieceCopyOp<PrepareSplit>);
RILL_REGISTER_KERNEL("SplitV", DEVICE_CPU, "", DT_INVALID, PieceCopyOp<PrepareSplitV>);
RILL_REGISTER_KERNEL("Roll", DEVICE_CPU, "", DT_INVALID, PieceCopyOp<PrepareRoll>);
RILL_REGISTER_KERNEL("MirrorPad", DEVICE_CPU, "", DT_INVALID, PieceCopyOp<PrepareMirrorPad>);
RILL_REGISTER_KERNEL("SpaceToDepth", DEVICE_CPU, "", DT_INVALID, PieceCopyOp<PrepareSpaceToDepth>);
RILL_REGISTER_KERNEL("DepthToSpace", DEVICE_CPU, "", DT_INVALID, PieceCopyOp<PrepareDepthToSpace>);
RILL_REGISTER_KERNEL("SpaceToBatchND", DEVICE_CPU, "", DT_INVALID,
                     PieceCopyOp<PrepareSpaceToBatchND>);
RILL_REGISTER_KERNEL("BatchToSpaceND", DEVICE_CPU, "", DT_INVALID,
                     PieceCopyOp<PrepareBatchToSpaceND>);
RILL_REGISTER_KERNEL("Diag", DEVICE_CPU, "", DT_INVALID, PieceCopyOp<PrepareDiag>);
RILL_REGISTER_KERNEL("DiagPart", DEVICE_CPU, "", DT_INVALID, PieceCopyOp<PrepareDiagPart>);
RILL_REGISTER_KERNEL("MatrixDiag", DEVICE_CPU, "", DT_INVALID, PieceCopyOp<PrepareMatrixDiag>);
RILL_REGISTER_KERNEL("MatrixDiagPart", DEVICE_CPU, "", DT_INVALID,
                     PieceCopyOp<PrepareMatrixDiagPart>);
RILL_REGISTER_KERNEL("MatrixSetDiag", DEVICE_CPU, "", DT_INVALID,
                     PieceCopyOp<PrepareMatrixSetDiag>);

}  // namespace
}  // namespace rill::cpu
