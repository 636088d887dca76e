// SparseSplit's CPU kernel (ops/sparse_tensor_ops.h). The pieces are TensorFlow's: of a
// dimension of d cut in n, the first d % n pieces hold d / n + 1 slices, the others d / n.
// Entries keep the input's order within each piece, so no order is required of the input;
// values are copied as bytes, one kernel for every dtype.
#include <algorithm>
#include <cstring>
#include <vector>

#include "rill/core/sparse_tensor.h"

namespace rill::cpu {
namespace {

// Which piece a coordinate along the split dimension falls in, and where that piece starts.
struct SparsePieces {
  int64_t size, num, base, extra;  // d, n, d / n, d % n (base >= 1: n <= d)
  int64_t Of(int64_t c) const {
    const int64_t long_end = extra * (base + 1);  // the longer pieces come first
    return c < long_end ? c / (base + 1) : extra + (c - long_end) / base;
  }
  int64_t Start(int64_t p) const { return p * base + std::min(p, extra); }
  int64_t Length(int64_t p) const { return base + (p < extra ? 1 : 0); }
};

absl::StatusOr<int64_t> SplitAxisInput(const Tensor& t, int64_t rank) {
  if (t.dims() != 0) {
    return errors::InvalidArgument("split_dim must be a scalar, got shape ",
                                   t.shape().DebugString());
  }
  return SparseSplitAxis(t.base<int64_t>()[0], rank);
}

class SparseSplitOp : public OpKernel {
 public:
  explicit SparseSplitOp(OpKernelConstruction& c)
      : OpKernel(c), num_(c.node().attr<int64_t>("num_split")) {}

  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const SparseOperand sp, SparseOperandOf(ctx, 1, 2, 3, "input"));
    RILL_ASSIGN_OR_RETURN(const int64_t axis, SplitAxisInput(ctx.input(0), sp.rank));
    const int64_t d = sp.dims[axis];
    if (num_ < 1 || num_ > d) {
      return errors::InvalidArgument("num_split should be between 1 and the splitting ",
                                     "dimension size (", d, "), got ", num_);
    }
    const SparsePieces pieces{d, num_, d / num_, d % num_};
    std::vector<int64_t> piece(sp.nnz), count(num_, 0);
    for (int64_t i = 0; i < sp.nnz; ++i) ++count[piece[i] = pieces.Of(sp.row(i)[axis])];
    std::vector<Tensor*> indices(num_), values(num_);
    for (int64_t p = 0; p < num_; ++p) {
      RILL_RETURN_IF_ERROR(Allocate(ctx, p, count[p], sp, axis, pieces, &indices[p], &values[p]));
    }
    const Tensor& in_values = ctx.input(2);
    const size_t elem = DataTypeSize(in_values.dtype());
    const char* v = static_cast<const char*>(in_values.data());
    std::vector<int64_t> filled(num_, 0);
    for (int64_t i = 0; i < sp.nnz; ++i) {
      const int64_t p = piece[i], k = filled[p]++;
      int64_t* row = indices[p]->base<int64_t>() + k * sp.rank;
      std::memcpy(row, sp.row(i), sizeof(int64_t) * sp.rank);
      row[axis] -= pieces.Start(p);
      std::memcpy(static_cast<char*>(values[p]->data()) + k * elem, v + i * elem, elem);
    }
    return absl::OkStatus();
  }

 private:
  // Piece p's three outputs: its index rows and values (`n` of them, filled by the caller)
  // and its dense shape.
  absl::Status Allocate(OpKernelContext& ctx, int64_t p, int64_t n, const SparseOperand& sp,
                        int64_t axis, const SparsePieces& pieces, Tensor** indices,
                        Tensor** values) const {
    const int out = static_cast<int>(p);
    RILL_RETURN_IF_ERROR(ctx.allocate_output(out, TensorShape({n, sp.rank}), indices));
    RILL_RETURN_IF_ERROR(ctx.allocate_output(static_cast<int>(num_ + p), TensorShape({n}), values));
    Tensor* shape;
    RILL_RETURN_IF_ERROR(
        ctx.allocate_output(static_cast<int>(2 * num_ + p), TensorShape({sp.rank}), &shape));
    int64_t* dims = shape->base<int64_t>();
    for (int64_t j = 0; j < sp.rank; ++j) dims[j] = sp.dims[j];
    dims[axis] = pieces.Length(p);
    return absl::OkStatus();
  }

  const int64_t num_;
};

RILL_REGISTER_KERNEL("SparseSplit", DEVICE_CPU, "", DT_INVALID, SparseSplitOp);

}  // namespace
}  // namespace rill::cpu
