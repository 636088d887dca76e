// CPU kernel of SparseToDense: core/sparse_to_dense.h's checked offsets, then the default
// value everywhere and each sparse value at its offset, in indices' order (with
// validate_indices false a repeated index keeps its last value). Elements move by their size
// in bytes: one kernel for every dtype. On a GPU placement it runs on the host.
#include <cstring>

#include "rill/core/sparse_to_dense.h"

namespace rill::cpu {
namespace {

class SparseToDenseOp : public OpKernel {
 public:
  explicit SparseToDenseOp(OpKernelConstruction& c)
      : OpKernel(c), validate_(c.node().attr<bool>("validate_indices")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const DenseScatter s, PrepareSparseToDense(ctx, validate_));
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, s.shape, &out));
    const size_t size = static_cast<size_t>(DataTypeSize(out->dtype()));
    char* y = static_cast<char*>(out->data());
    const char* fill = static_cast<const char*>(ctx.input(3).data());
    for (int64_t i = 0; i < out->NumElements(); ++i) std::memcpy(y + i * size, fill, size);
    const char* values = static_cast<const char*>(ctx.input(2).data());
    for (size_t n = 0; n < s.offsets.size(); ++n) {
      const char* v = values + (s.scalar_values ? 0 : n * size);
      std::memcpy(y + s.offsets[n] * static_cast<int64_t>(size), v, size);
    }
    return absl::OkStatus();
  }

 private:
  bool validate_;
};

RILL_REGISTER_KERNEL("SparseToDense", DEVICE_CPU, "", DT_INVALID, SparseToDenseOp);
RILL_REGISTER_KERNEL_HOST_OUTPUTS("SparseToDense", DEVICE_GPU, "", DT_INVALID, {kAllHostInputs},
                                  SparseToDenseOp);

}  // namespace
}  // namespace rill::cpu
