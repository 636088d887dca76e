// TensorFlow's first batch normalization op, BatchNormWithGlobalNormalization
// (tf.compat.v1.nn.batch_norm_with_global_normalization, in graphs written before
// FusedBatchNorm), and its gradient op, with TensorFlow's C++ names and arguments: over
// the last dim of a 4-D t, y = (t - m) / sqrt(v + variance_epsilon) * gamma + beta, gamma
// applied only when scale_after_normalization. Float and double; CPU kernels.
#pragma once

#include "rill/ops/op_builder.h"
#include "rill/ops/piece_ops.h"

namespace rill::ops {

class BatchNormWithGlobalNormalization : public OpWrapper {
 public:
  BatchNormWithGlobalNormalization(const Scope& scope, Input t, Input m, Input v, Input beta,
                                   Input gamma, float variance_epsilon,
                                   bool scale_after_normalization);
};

// The gradients of t, m, v, beta and gamma: [0] dx, [1] dm, [2] dv, [3] db, [4] dg.
class BatchNormWithGlobalNormalizationGrad : public MultiOutputWrapper {
 public:
  BatchNormWithGlobalNormalizationGrad(const Scope& scope, Input t, Input m, Input v, Input gamma,
                                       Input backprop, float variance_epsilon,
                                       bool scale_after_normalization);
};

}  // namespace rill::ops
