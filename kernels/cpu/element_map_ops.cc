// CPU kernels of ReverseSequence and MatrixBandPart: core/element_map.h's rule per output
// element, elements moved as integers of their size (one kernel for every dtype).
#include <cstdint>

#include "rill/core/rearrange_copy.h"

namespace rill::cpu {
namespace {

template <typename Word, typename Map>
void MapAll(const Tensor& in, Tensor* out, const Map& map) {
  const Word* src = static_cast<const Word*>(in.data());
  Word* dst = static_cast<Word*>(out->data());
  for (int64_t e = 0, n = out->NumElements(); e < n; ++e) MapElement(src, dst, e, map);
}

template <typename Map>
absl::Status RunMap(const Tensor& in, Tensor* out, const Map& map) {
  if (out->NumElements() == 0) return absl::OkStatus();
  switch (DataTypeSize(in.dtype())) {
    case 1:
      MapAll<uint8_t>(in, out, map);
      return absl::OkStatus();
    case 2:
      MapAll<uint16_t>(in, out, map);
      return absl::OkStatus();
    case 4:
      MapAll<uint32_t>(in, out, map);
      return absl::OkStatus();
    case 8:
      MapAll<uint64_t>(in, out, map);
      return absl::OkStatus();
  }
  return errors::Unimplemented("elements of ", DataTypeSize(in.dtype()), " bytes");
}

class ReverseSequenceOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    Tensor lens;
    RILL_ASSIGN_OR_RETURN(ReverseSequenceMap map, PrepareReverseSequence(ctx, &out, &lens));
    map.lens = lens.base<int64_t>();
    return RunMap(ctx.input(0), out, map);
  }
};

class MatrixBandPartOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const BandMap map, PrepareMatrixBandPart(ctx, &out));
    return out == nullptr ? absl::OkStatus() : RunMap(ctx.input(0), out, map);
  }
};

RILL_REGISTER_KERNEL("ReverseSequence", DEVICE_CPU, "", DT_INVALID, ReverseSequenceOp);
RILL_REGISTER_KERNEL("MatrixBandPart", DEVICE_CPU, "", DT_INVALID, MatrixBandPartOp);

}  // namespace
}  // namespace rill::cpu
