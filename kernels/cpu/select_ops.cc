// CPU kernels of Range, LinSpace, Select, SelectV2 and Where. Select moves elements by their size
// in bytes, so one kernel serves every dtype.
#include "rill/core/range.h"
#include "rill/core/select.h"

namespace rill::cpu {
namespace {

template <typename T>
class RangeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override { return RangeOnHost<T>(ctx); }
};

template <typename T>
class LinSpaceOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override { return LinSpaceOnHost<T>(ctx); }
};

template <bool kV2>
class SelectOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(SelectPlan p, PrepareSelect(ctx, kV2, &out));
    RunSelectOnHost(p, out->NumElements(), DataTypeSize(out->dtype()), ctx.input(0).base<bool>(),
                    ctx.input(1).data(), ctx.input(2).data(), out->data());
    return absl::OkStatus();
  }
};

class WhereOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override { return ComputeWhere(ctx); }
};

#define RILL_REG_RANGE(T, unused) \
  RILL_REGISTER_KERNEL("Range", DEVICE_CPU, "Tidx", DataTypeToEnum<T>::value, RangeOp<T>);
RILL_FOR_SIGNED_TYPES(RILL_REG_RANGE, _)
#undef RILL_REG_RANGE
RILL_REGISTER_KERNEL("LinSpace", DEVICE_CPU, "T", DT_FLOAT, LinSpaceOp<float>);
RILL_REGISTER_KERNEL("LinSpace", DEVICE_CPU, "T", DT_DOUBLE, LinSpaceOp<double>);
RILL_REGISTER_KERNEL("Select", DEVICE_CPU, "", DT_INVALID, SelectOp<false>);
RILL_REGISTER_KERNEL("SelectV2", DEVICE_CPU, "", DT_INVALID, SelectOp<true>);
RILL_REGISTER_KERNEL("Where", DEVICE_CPU, "", DT_INVALID, WhereOp);

}  // namespace
}  // namespace rill::cpu
