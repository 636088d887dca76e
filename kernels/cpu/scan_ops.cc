// CPU kernels of Cumsum and Cumprod: core/scan_row.h over every column of [outer, n, inner].
#include "rill/core/scan.h"
#include "rill/core/scan_row.h"

namespace rill::cpu {
namespace {

template <typename T, bool kProd>
class ScanOp : public OpKernel {
 public:
  explicit ScanOp(OpKernelConstruction& c) : OpKernel(c), o_(ScanOptionsOf(c)) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(ScanGeometry g, PrepareScan(ctx, &out));
    const T* x = ctx.input(0).base<T>();
    T* y = out->base<T>();
    for (int64_t o = 0; o < g.outer; ++o) {
      for (int64_t i = 0; i < g.inner; ++i) {
        const int64_t base = o * g.n * g.inner + i;
        ScanColumn<T, kProd>(x + base, y + base, g.n, g.inner, o_.exclusive, o_.reverse);
      }
    }
    return absl::OkStatus();
  }

 private:
  ScanOptions o_;
};

#define RILL_REG_SCAN(T, unused)                                                               \
  RILL_REGISTER_KERNEL("Cumsum", DEVICE_CPU, "T", DataTypeToEnum<T>::value, ScanOp<T, false>); \
  RILL_REGISTER_KERNEL("Cumprod", DEVICE_CPU, "T", DataTypeToEnum<T>::value, ScanOp<T, true>);
RILL_FOR_NUMBER_TYPES(RILL_REG_SCAN, _)
#undef RILL_REG_SCAN

}  // namespace
}  // namespace rill::cpu
