// CPU kernels of Tile, Pack, Unpack, Split and SplitV: the strided copies planned by
// core/piece_copy.h, run on host memory for every dtype.
#include "rill/core/piece_copy.h"

namespace rill::cpu {
namespace {

template <absl::StatusOr<PieceCopies> (*kPrepare)(OpKernelContext&)>
class PieceCopyOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(PieceCopies copies, kPrepare(ctx));
    for (const PieceCopy& p : copies) {
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

}  // namespace
}  // namespace rill::cpu
