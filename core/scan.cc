#include "rill/core/scan.h"

#include "rill/core/graph.h"
#include "rill/core/shape_inference.h"

namespace rill {

ScanOptions ScanOptionsOf(const OpKernelConstruction& c) {
  return {c.node().attr<bool>("exclusive"), c.node().attr<bool>("reverse")};
}

absl::StatusOr<ScanGeometry> PrepareScan(OpKernelContext& ctx, Tensor** out) {
  const Tensor& x = ctx.input(0);
  const Tensor& axis_t = ctx.input(1);
  if (axis_t.dims() != 0) {
    return errors::InvalidArgument("axis must be a scalar, got shape ",
                                   axis_t.shape().DebugString());
  }
  if (x.dims() == 0) return errors::InvalidArgument("x must have rank >= 1, got a scalar");
  RILL_ASSIGN_OR_RETURN(auto axis, shape_fns::IntValues(axis_t, "axis"));
  RILL_ASSIGN_OR_RETURN(int ax, shape_fns::CanonicalAxis(axis[0], x.dims(), "axis"));
  ScanGeometry g;
  for (int d = 0; d < x.dims(); ++d) {
    int64_t& part = d < ax ? g.outer : (d == ax ? g.n : g.inner);
    part *= x.dim_size(d);
  }
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), out));
  return g;
}

}  // namespace rill
