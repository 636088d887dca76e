// Runs an Einsum plan (einsum.h) on any device, through a backend that provides, for
// element type T:
//   absl::StatusOr<T*> Scratch(int64_t n);  // n elements, alive until the op's work is done
//   absl::Status Copy(const StridedCopy& c, const T* src, T* dst);
//   absl::Status SumRows(const T* src, T* dst, int64_t rows, int64_t r);  // [rows, r] -> [rows]
//   absl::Status Zero(T* dst, int64_t n);
//   absl::Status Gemm(const EinsumPlan& p, const T* x, const T* y, T* out);  // batched, strided
// The CPU and GPU kernels differ only in their backends.
#pragma once

#include "rill/core/einsum.h"
#include "rill/core/status.h"

namespace rill::einsum {

// A copy of n contiguous elements.
inline StridedCopy FlatCopy(int64_t n) {
  StridedCopy c;
  c.rank = 1;
  c.dims[0] = n;
  c.src_strides[0] = c.dst_strides[0] = 1;
  return c;
}

// Operand `op` prepared as the plan says, its last step writing into `last` when given
// (else into scratch). Returns where the prepared operand is.
template <typename T, typename Backend>
absl::StatusOr<const T*> PrepareOperand(const EinsumOperandPlan& op, const T* src, T* last,
                                        Backend& b) {
  int steps = int{op.gathered} + int{op.reduce != 1} + int{op.expanded};
  auto dest = [&](int64_t n) -> absl::StatusOr<T*> {
    if (--steps == 0 && last != nullptr) return last;
    return b.Scratch(n);
  };
  if (op.gathered) {
    RILL_ASSIGN_OR_RETURN(T * d, dest(op.gather.num_elements()));
    RILL_RETURN_IF_ERROR(b.Copy(op.gather, src, d));
    src = d;
  }
  if (op.reduce != 1) {
    RILL_ASSIGN_OR_RETURN(T * d, dest(op.rows));
    RILL_RETURN_IF_ERROR(op.reduce == 0 ? b.Zero(d, op.rows)
                                        : b.SumRows(src, d, op.rows, op.reduce));
    src = d;
  }
  if (op.expanded) {
    RILL_ASSIGN_OR_RETURN(T * d, dest(op.elements));
    RILL_RETURN_IF_ERROR(b.Copy(op.expand, src, d));
    src = d;
  }
  if (last != nullptr && src != last) {
    RILL_RETURN_IF_ERROR(b.Copy(FlatCopy(op.elements), src, last));
    src = last;
  }
  return src;
}

// Computes the plan's output into `out` (allocated, `out_elements` of it) from the inputs.
template <typename T, typename Backend>
absl::Status Run(const EinsumPlan& p, const T* x, const T* y, T* out, int64_t out_elements,
                 Backend& b) {
  if (out_elements == 0) return absl::OkStatus();
  const T* mid = nullptr;
  if (p.num_inputs == 1) {
    RILL_ASSIGN_OR_RETURN(mid, PrepareOperand<T>(p.operand[0], x, p.direct ? out : nullptr, b));
  } else {
    RILL_ASSIGN_OR_RETURN(const T* xp, PrepareOperand<T>(p.operand[0], x, nullptr, b));
    RILL_ASSIGN_OR_RETURN(const T* yp, PrepareOperand<T>(p.operand[1], y, nullptr, b));
    T* product = out;
    if (!p.direct) {
      RILL_ASSIGN_OR_RETURN(product, b.Scratch(p.mid_elements));
    }
    RILL_RETURN_IF_ERROR(p.k == 0 ? b.Zero(product, p.mid_elements) : b.Gemm(p, xp, yp, product));
    mid = product;
  }
  if (p.direct) return absl::OkStatus();
  if (p.zero_fill) RILL_RETURN_IF_ERROR(b.Zero(out, out_elements));
  return b.Copy(p.scatter, mid, out);
}

}  // namespace rill::einsum
