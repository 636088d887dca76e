#include "rill/core/batch_matmul.h"

#include "rill/core/broadcast.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {

using shape_util::Str;

// x's or y's batch dims (all but the last two) as a shape; -1 dims kept.
PartialTensorShape BatchOf(absl::Span<const int64_t> d) {
  return PartialTensorShape(d.subspan(0, d.size() - 2));
}

// Row-major strides, in matrices, of `batch` walked as `out` (0 where it broadcasts).
std::vector<int64_t> Strides(const TensorShape& batch, const TensorShape& out) {
  std::vector<int64_t> s(out.dims(), 0);
  int64_t stride = 1;
  for (int d = out.dims() - 1, k = batch.dims() - 1; d >= 0; --d, --k) {
    const int64_t size = k >= 0 ? batch.dim_size(k) : 1;
    s[d] = size == 1 && out.dim_size(d) != 1 ? 0 : stride;
    stride *= size;
  }
  return s;
}

}  // namespace

absl::StatusOr<shape_util::Dims> BatchMatMulDims(absl::Span<const int64_t> x,
                                                 absl::Span<const int64_t> y, bool adj_x,
                                                 bool adj_y) {
  if (x.size() < 2 || y.size() < 2) {
    return errors::InvalidArgument("x ", Str(x), " and y ", Str(y), " must have rank >= 2");
  }
  const int64_t m = x[x.size() - (adj_x ? 1 : 2)], kx = x[x.size() - (adj_x ? 2 : 1)];
  const int64_t ky = y[y.size() - (adj_y ? 1 : 2)], n = y[y.size() - (adj_y ? 2 : 1)];
  if (kx >= 0 && ky >= 0 && kx != ky) {
    return errors::InvalidArgument("x ", Str(x), (adj_x ? " (adjointed)" : ""), " and y ", Str(y),
                                   (adj_y ? " (adjointed)" : ""),
                                   " do not multiply: inner dimensions ", kx, " and ", ky);
  }
  auto batch = shape_fns::Broadcast(BatchOf(x), BatchOf(y));
  if (!batch.ok()) {
    return errors::InvalidArgument("the batch dimensions of x ", Str(x), " and y ", Str(y),
                                   " do not broadcast");
  }
  shape_util::Dims out(batch->dim_sizes().begin(), batch->dim_sizes().end());
  out.push_back(m);
  out.push_back(n);
  if (out.size() > static_cast<size_t>(kMaxTensorRank)) {
    return errors::InvalidArgument("result would have rank ", out.size());
  }
  return out;
}

absl::StatusOr<BatchMatMulPlan> PrepareBatchMatMul(OpKernelContext& ctx, bool adj_x, bool adj_y,
                                                   Tensor** out) {
  const Tensor &x = ctx.input(0), &y = ctx.input(1);
  const auto xd = x.shape().dim_sizes(), yd = y.shape().dim_sizes();
  RILL_ASSIGN_OR_RETURN(shape_util::Dims dims, BatchMatMulDims(xd, yd, adj_x, adj_y));
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(dims));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, out));
  BatchMatMulPlan p;
  p.m = dims[dims.size() - 2];
  p.n = dims[dims.size() - 1];
  p.k = xd[xd.size() - (adj_x ? 2 : 1)];
  const TensorShape batch(absl::Span<const int64_t>(dims).subspan(0, dims.size() - 2));
  const auto xs = Strides(TensorShape(xd.subspan(0, xd.size() - 2)), batch);
  const auto ys = Strides(TensorShape(yd.subspan(0, yd.size() - 2)), batch);
  const int64_t count = batch.num_elements();
  const int64_t x_count = x.NumElements() == 0 ? 0 : x.NumElements() / (p.m * p.k);
  p.x_step = x_count == 1 ? 0 : 1;
  p.y_step = (count > 0 && y.NumElements() / std::max<int64_t>(1, p.k * p.n) == 1) ? 0 : 1;
  std::vector<int64_t> idx(batch.dims(), 0);
  int64_t xi = 0, yi = 0;
  for (int64_t b = 0; b < count; ++b) {
    p.x_index.push_back(xi);
    p.y_index.push_back(yi);
    p.strided &= xi == b * p.x_step && yi == b * p.y_step;
    for (int d = batch.dims() - 1; d >= 0; --d) {  // the odometer
      xi += xs[d];
      yi += ys[d];
      if (++idx[d] < batch.dim_size(d)) break;
      xi -= xs[d] * batch.dim_size(d);
      yi -= ys[d] * batch.dim_size(d);
      idx[d] = 0;
    }
  }
  return p;
}

}  // namespace rill
