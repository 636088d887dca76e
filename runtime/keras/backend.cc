#include "rill/runtime/keras/backend.h"

#include "rill/ops/array_ops.h"
#include "rill/ops/math_ops.h"

namespace rill::keras::backend {

using namespace ::rill::ops;  // NOLINT

Output ClipProbabilities(const Scope& s, const Output& p) {
  return Maximum(s, Minimum(s, p, 1.f - kEpsilon), kEpsilon);
}

Output CategoricalCrossentropy(const Scope& s, const Output& target, const Output& output) {
  Output scaled = Div(s, output, Sum(s, output, -1, Sum::KeepDims(true)));
  return Neg(s, Sum(s, Mul(s, target, Log(s, ClipProbabilities(s, scaled))), -1));
}

Output MeanOfAll(const Scope& s, const Output& x) { return Mean(s, Reshape(s, x, {-1}), 0); }

Output CategoricalAccuracy(const Scope& s, const Output& target, const Output& output) {
  return MeanOfAll(s, Cast(s, Equal(s, ArgMax(s, output, 1), ArgMax(s, target, 1)), DT_FLOAT));
}

Output SparseCategoricalAccuracy(const Scope& s, const Output& ids, const Output& output) {
  return MeanOfAll(s, Cast(s, Equal(s, ArgMax(s, output, 1), Reshape(s, ids, {-1})), DT_FLOAT));
}

Output BinaryAccuracy(const Scope& s, const Output& target, const Output& output) {
  Output predicted = Cast(s, Greater(s, output, 0.5f), DT_FLOAT);
  return MeanOfAll(s, Cast(s, Equal(s, predicted, Reshape(s, target, Shape(s, output))), DT_FLOAT));
}

}  // namespace rill::keras::backend
