// CPU kernels of Bucketize, HistogramFixedWidth, UnravelIndex and ListDiff
// (core/value_bins.h, core/index_sets.h), per dtype.
#include "rill/core/index_sets.h"
#include "rill/core/value_bins.h"

namespace rill::cpu {
namespace {

template <typename T>
class BucketizeOp : public OpKernel {
 public:
  explicit BucketizeOp(OpKernelConstruction& c)
      : OpKernel(c), boundaries_(c.node().attr<std::vector<float>>("boundaries")) {}
  absl::Status Compute(OpKernelContext& ctx) override { return Bucketize<T>(ctx, boundaries_); }

 private:
  const std::vector<float> boundaries_;
};

template <typename T>
class HistogramOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override { return HistogramFixedWidth<T>(ctx); }
};

template <typename T>
class UnravelIndexOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override { return UnravelIndex<T>(ctx); }
};

template <typename T>
class ListDiffOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override { return ListDiff<T>(ctx); }
};

#define RILL_REG_BINS(T)                                                                        \
  RILL_REGISTER_KERNEL("Bucketize", DEVICE_CPU, "T", DataTypeToEnum<T>::value, BucketizeOp<T>); \
  RILL_REGISTER_KERNEL("HistogramFixedWidth", DEVICE_CPU, "T", DataTypeToEnum<T>::value,        \
                       HistogramOp<T>);
RILL_REG_BINS(int32_t)
RILL_REG_BINS(int64_t)
RILL_REG_BINS(float)
RILL_REG_BINS(double)
#undef RILL_REG_BINS

RILL_REGISTER_KERNEL("UnravelIndex", DEVICE_CPU, "Tidx", DT_INT32, UnravelIndexOp<int32_t>);
RILL_REGISTER_KERNEL("UnravelIndex", DEVICE_CPU, "Tidx", DT_INT64, UnravelIndexOp<int64_t>);

#define RILL_REG_LIST_DIFF(T, unused) \
  RILL_REGISTER_KERNEL("ListDiff", DEVICE_CPU, "T", DataTypeToEnum<T>::value, ListDiffOp<T>);
RILL_FOR_ALL_TYPES(RILL_REG_LIST_DIFF, _)
#undef RILL_REG_LIST_DIFF

}  // namespace
}  // namespace rill::cpu
