// GatherNd and ScatterNd address slices of a tensor by index tuples: indices [m..., K]
// name, in a tensor of dims [d0..d(K-1), inner...], the slice (i0..i(K-1), :...). Both are
// planned here once for the CPU and GPU kernels: every tuple is checked on the host (one
// out of range is an error on every device, where TensorFlow's GPU kernels write zeros)
// and turned into a flat slice number, so GatherNd is Gather of flat rows and ScatterNd an
// UnsortedSegmentSum into them (tuples given twice add, as TensorFlow's).
#pragma once

#include "rill/core/kernel.h"
#include "rill/core/shape_util.h"

namespace rill {

struct NdGeometry {
  int64_t rows = 0;    // index tuples
  int64_t slices = 0;  // d0 * ... * d(K-1)
  int64_t inner = 1;   // elements per slice
};

// GatherNd's output dims: indices[:-1] + params[K:], K (indices' last dim) known; other
// -1 dims stay unknown.
absl::StatusOr<shape_util::Dims> GatherNdDims(absl::Span<const int64_t> params,
                                              absl::Span<const int64_t> indices);
// ScatterNd's updates must be indices[:-1] + shape[K:] (-1 dims are not compared).
absl::Status CheckScatterNd(absl::Span<const int64_t> indices, absl::Span<const int64_t> updates,
                            absl::Span<const int64_t> shape);

// ScatterUpdate and kin: updates must be indices + var[1:] (-1 dims are not compared), or
// a scalar, TensorFlow's one value for every element of every indexed row.
absl::Status CheckScatterRows(absl::Span<const int64_t> indices, absl::Span<const int64_t> updates,
                              absl::Span<const int64_t> var);

// GatherNd (params, indices) and ScatterNd (indices, updates, shape): check, allocate
// output 0 and fill *flat (a host int64 tensor [rows]) with each tuple's slice number.
absl::StatusOr<NdGeometry> PrepareGatherNd(OpKernelContext& ctx, Tensor** out, Tensor* flat);
absl::StatusOr<NdGeometry> PrepareScatterNd(OpKernelContext& ctx, Tensor** out, Tensor* flat);

// TensorScatterUpdate and its kin (tensor, indices, updates): checks updates against
// indices[:-1] + tensor[K:], makes output 0 (tensor's own buffer when nothing else reads it,
// updated in place; else a new one, into which the kernel copies tensor) and fills *flat
// with each tuple's slice number.
absl::StatusOr<NdGeometry> PrepareTensorScatter(OpKernelContext& ctx, Tensor** out, Tensor* flat);

// The variable scatters on a variable's value `var`: ScatterNdUpdate and kin (`nd`: indices
// [m..., K] as TensorScatterUpdate's) and ScatterUpdate and kin (each index of indices, of
// any shape, names a row of var's first dim; updates indices + var[1:], or a scalar for
// all of them). Checks the shapes and every index, and fills *flat with each row's slice
// number.
absl::StatusOr<NdGeometry> PrepareVariableScatter(const Tensor& var, const Tensor& indices,
                                                  const Tensor& updates, bool nd, Tensor* flat);
// The same for a variable scatter's kernel (inputs: ref, indices on the host, updates), the
// variable's lock held: its value must be initialized; errors name the node and variable.
class Var;
absl::StatusOr<NdGeometry> PrepareVariableScatter(OpKernelContext& ctx, Var& var, bool nd,
                                                  Tensor* flat);

// The rows of `flat` grouped by the slice they land on, each group in indices' order, so
// that a device may update every slice at once and still apply one slice's rows in turn
// (deterministic, and the last of repeated tuples wins an update, as on the CPU).
struct ScatterGroups {
  Tensor order;    // int64 [rows]: row numbers, grouped
  Tensor starts;   // int64 [groups + 1]: each group's first position in order
  Tensor targets;  // int64 [groups]: each group's slice number
  int64_t groups = 0;
};
ScatterGroups GroupRowsBySlice(const Tensor& flat);

}  // namespace rill
