#include "rill/core/broadcast.h"

namespace rill {

BroadcastPlan MakeBroadcastPlan(const TensorShape& a, const TensorShape& b,
                                const TensorShape& out) {
  // Align to the output's rank, then merge neighbouring dims that broadcast alike.
  const int r = out.dims();
  int64_t da[kMaxTensorRank], db[kMaxTensorRank];
  for (int i = 0; i < r; ++i) {
    int ia = a.dims() - r + i, ib = b.dims() - r + i;
    da[i] = ia >= 0 ? a.dim_size(ia) : 1;
    db[i] = ib >= 0 ? b.dim_size(ib) : 1;
  }
  BroadcastPlan p;
  p.rank = 0;
  int prev_kind = -1;
  for (int i = 0; i < r; ++i) {
    int64_t d = out.dim_size(i);
    if (d == 1) continue;
    int kind = (da[i] == d ? 1 : 0) | (db[i] == d ? 2 : 0);
    if (kind == prev_kind) {
      p.dims[p.rank - 1] *= d;
    } else {
      p.dims[p.rank] = d;
      p.a_strides[p.rank] = kind & 1;  // placeholder: 1 = varies, fixed below
      p.b_strides[p.rank] = (kind >> 1) & 1;
      ++p.rank;
      prev_kind = kind;
    }
  }
  if (p.rank == 0) {
    p.rank = 1;
    p.dims[0] = 1;
    p.a_strides[0] = p.b_strides[0] = 1;
  }
  // Element strides, row-major, for the inputs' own (collapsed) layouts.
  int64_t sa = 1, sb = 1;
  for (int i = p.rank - 1; i >= 0; --i) {
    bool va = p.a_strides[i] != 0, vb = p.b_strides[i] != 0;
    p.a_strides[i] = va ? sa : 0;
    p.b_strides[i] = vb ? sb : 0;
    if (va) sa *= p.dims[i];
    if (vb) sb *= p.dims[i];
  }
  return p;
}

}  // namespace rill
