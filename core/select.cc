#include "rill/core/select.h"

#include <cstring>

#include "rill/core/shape_inference.h"

namespace rill {
namespace {

// The strides of `s` (right-aligned) walking `out`: 0 where s broadcasts.
void AlignedStrides(const TensorShape& s, const TensorShape& out, int64_t* strides) {
  const int offset = out.dims() - s.dims();
  int64_t stride = 1;
  for (int d = out.dims() - 1; d >= 0; --d) {
    const int k = d - offset;
    const int64_t size = k >= 0 ? s.dim_size(k) : 1;
    strides[d] = size == 1 && out.dim_size(d) != 1 ? 0 : stride;
    stride *= size;
  }
}

absl::Status Mismatch(const char* what, const PartialTensorShape& a, const PartialTensorShape& b) {
  return errors::InvalidArgument(what, ": ", a.DebugString(), " and ", b.DebugString());
}

template <typename Word>
void Walk(const SelectPlan& p, int64_t n, const bool* c, const Word* t, const Word* e, Word* o) {
  if (p.same_shapes) {
    for (int64_t i = 0; i < n; ++i) o[i] = c[i] ? t[i] : e[i];
    return;
  }
  int64_t idx[kMaxTensorRank] = {0};
  int64_t ci = 0, ti = 0, ei = 0;
  for (int64_t i = 0; i < n; ++i) {
    o[i] = c[ci] ? t[ti] : e[ei];
    for (int d = p.rank - 1; d >= 0; --d) {  // the odometer
      ci += p.cond[d];
      ti += p.t[d];
      ei += p.e[d];
      if (++idx[d] < p.dims[d]) break;
      ci -= p.cond[d] * p.dims[d];
      ti -= p.t[d] * p.dims[d];
      ei -= p.e[d] * p.dims[d];
      idx[d] = 0;
    }
  }
}

}  // namespace

absl::StatusOr<PartialTensorShape> SelectShape(const PartialTensorShape& cond,
                                               const PartialTensorShape& t,
                                               const PartialTensorShape& e) {
  const auto merged = shape_fns::Broadcast(t, e);
  if (!merged.ok() || (!t.unknown_rank() && !e.unknown_rank() && t.dims() != e.dims())) {
    return Mismatch("t and e must have one shape", t, e);
  }
  PartialTensorShape out = *merged;
  for (int d = 0; !t.unknown_rank() && !e.unknown_rank() && d < t.dims(); ++d) {
    if (t.dim_size(d) >= 0 && e.dim_size(d) >= 0 && t.dim_size(d) != e.dim_size(d)) {
      return Mismatch("t and e must have one shape", t, e);
    }
  }
  if (cond.unknown_rank() || out.unknown_rank() || cond.dims() == 0) return out;
  if (cond.dims() == 1 && out.dims() > 1) {
    if (cond.dim_size(0) >= 0 && out.dim_size(0) >= 0 && cond.dim_size(0) != out.dim_size(0)) {
      return Mismatch("a vector condition must have one entry per row of t", cond, out);
    }
    return out;
  }
  bool ok = cond.dims() == out.dims();
  for (int d = 0; ok && d < cond.dims(); ++d) {
    ok = cond.dim_size(d) < 0 || out.dim_size(d) < 0 || cond.dim_size(d) == out.dim_size(d);
  }
  if (!ok) {
    return Mismatch("condition must be a scalar, a vector over t's rows or of t's shape", cond,
                    out);
  }
  return out;
}

absl::StatusOr<PartialTensorShape> SelectV2Shape(const PartialTensorShape& cond,
                                                 const PartialTensorShape& t,
                                                 const PartialTensorShape& e) {
  const auto te = shape_fns::Broadcast(t, e);
  if (!te.ok()) return Mismatch("t and e do not broadcast", t, e);
  const auto out = shape_fns::Broadcast(cond, *te);
  if (!out.ok()) return Mismatch("condition does not broadcast with t and e", cond, *te);
  return *out;
}

absl::StatusOr<SelectPlan> PrepareSelect(OpKernelContext& ctx, bool v2, Tensor** out) {
  const TensorShape &c = ctx.input(0).shape(), &t = ctx.input(1).shape(), &e = ctx.input(2).shape();
  RILL_ASSIGN_OR_RETURN(PartialTensorShape partial,
                        v2 ? SelectV2Shape(c, t, e) : SelectShape(c, t, e));
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(partial.dim_sizes()));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, out));
  SelectPlan p;
  p.rank = shape.dims();
  p.same_shapes = c == shape && t == shape && e == shape;
  for (int d = 0; d < p.rank; ++d) p.dims[d] = shape.dim_size(d);
  AlignedStrides(t, shape, p.t);
  AlignedStrides(e, shape, p.e);
  if (!v2 && c.dims() == 1 && shape.dims() > 1) {
    p.cond[0] = 1;  // Select's row condition: one entry per index of dim 0
  } else {
    AlignedStrides(c, shape, p.cond);
  }
  return p;
}

void RunSelectOnHost(const SelectPlan& p, int64_t n, size_t es, const bool* cond, const void* t,
                     const void* e, void* out) {
  switch (es) {
    case 1:
      return Walk(p, n, cond, static_cast<const uint8_t*>(t), static_cast<const uint8_t*>(e),
                  static_cast<uint8_t*>(out));
    case 2:
      return Walk(p, n, cond, static_cast<const uint16_t*>(t), static_cast<const uint16_t*>(e),
                  static_cast<uint16_t*>(out));
    case 4:
      return Walk(p, n, cond, static_cast<const uint32_t*>(t), static_cast<const uint32_t*>(e),
                  static_cast<uint32_t*>(out));
    default:
      return Walk(p, n, cond, static_cast<const uint64_t*>(t), static_cast<const uint64_t*>(e),
                  static_cast<uint64_t*>(out));
  }
}

absl::Status ComputeWhere(OpKernelContext& ctx) {
  const Tensor& in = ctx.input(0);
  const int64_t n = in.NumElements();
  const size_t es = DataTypeSize(in.dtype());
  const char* bytes = static_cast<const char*>(in.data());
  static const char kZero[8] = {0};
  // Nonzero as the element's value: -0.0 is zero, NaN is not (as TensorFlow's != 0).
  auto nonzero = [&](int64_t i) {
    switch (in.dtype()) {
      case DT_FLOAT:
        return in.base<float>()[i] != 0.0f;
      case DT_DOUBLE:
        return in.base<double>()[i] != 0.0;
      default:
        return std::memcmp(bytes + i * es, kZero, es) != 0;
    }
  };
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += nonzero(i);
  Tensor* out;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({count, in.dims()}), &out));
  int64_t* o = out->base<int64_t>();
  const int rank = in.dims();
  for (int64_t i = 0; i < n; ++i) {
    if (!nonzero(i)) continue;
    int64_t rest = i;
    for (int d = rank - 1; d >= 0; --d) {
      o[d] = rest % in.dim_size(d);
      rest /= in.dim_size(d);
    }
    o += rank;
  }
  return absl::OkStatus();
}

}  // namespace rill
