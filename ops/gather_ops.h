// Gathering rows by index, with TensorFlow's C++ names: Gather, GatherV2, GatherNd and
// ScatterNd (and the segment sums, whose gradients gathers are: segment_ops.h).
#pragma once

#include "rill/ops/op_builder.h"
#include "rill/ops/segment_ops.h"

namespace rill::ops {

// params' slices along axis 0 at `indices`: out[j..., i...] = params[indices[j...], i...].
class Gather : public OpWrapper {
 public:
  Gather(const Scope& scope, Input params, Input indices);
};

// params' slices along `axis` at `indices`, the first batch_dims dims shared by both.
class GatherV2 : public OpWrapper {
 public:
  struct Attrs {
    Attrs BatchDims(int64_t x) {
      Attrs r = *this;
      r.batch_dims_ = x;
      return r;
    }
    int64_t batch_dims_ = 0;
  };
  GatherV2(const Scope& scope, Input params, Input indices, Input axis)
      : GatherV2(scope, params, indices, axis, Attrs()) {}
  GatherV2(const Scope& scope, Input params, Input indices, Input axis, const Attrs& attrs);
  static Attrs BatchDims(int64_t x) { return Attrs().BatchDims(x); }
};

// Slices of params named by index tuples: indices [m..., K] give
// out[m..., i...] = params[indices[m..., 0], ..., indices[m..., K-1], i...].
class GatherNd : public OpWrapper {
 public:
  GatherNd(const Scope& scope, Input params, Input indices);
};

// A zero tensor of `shape` with updates[m..., i...] added at the slice indices[m..., :]
// names (tuples given twice add up).
class ScatterNd : public OpWrapper {
 public:
  ScatterNd(const Scope& scope, Input indices, Input updates, Input shape);
};

// `tensor` with the slices indices [m..., K] names set to updates [m..., tensor[K:]...]
// (TensorScatterUpdate: the last of repeated tuples wins), or combined with them: Add, Sub
// (each repeated tuple's update in turn), Min, Max. tf.tensor_scatter_nd_update and kin.
#define RILL_DECLARE_TENSOR_SCATTER(Name)                                 \
  class Name : public OpWrapper {                                         \
   public:                                                                \
    Name(const Scope& scope, Input tensor, Input indices, Input updates); \
  };
RILL_DECLARE_TENSOR_SCATTER(TensorScatterUpdate)
RILL_DECLARE_TENSOR_SCATTER(TensorScatterAdd)
RILL_DECLARE_TENSOR_SCATTER(TensorScatterSub)
RILL_DECLARE_TENSOR_SCATTER(TensorScatterMin)
RILL_DECLARE_TENSOR_SCATTER(TensorScatterMax)
#undef RILL_DECLARE_TENSOR_SCATTER

}  // namespace rill::ops
