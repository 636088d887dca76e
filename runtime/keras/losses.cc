#include "rill/runtime/keras/losses.h"

#include "rill/ops/array_ops.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/nn_ops.h"

namespace rill::keras {
namespace {

using namespace ::rill::ops;  // NOLINT

constexpr float kEpsilon = 1e-7f;

Output Clip(const Scope& s, const Output& p) {
  return Maximum(s, Minimum(s, p, 1.f - kEpsilon), kEpsilon);
}
// Labels as float, shaped like the output ([N] labels for an [N, 1] output).
Output LikeOutput(const Scope& s, const Output& labels, const Output& out) {
  Output y = labels.type() == DT_FLOAT ? labels : Output(Cast(s, labels, DT_FLOAT));
  return Reshape(s, y, Shape(s, out));
}
Output BatchMean(const Scope& s, const Output& per_example) {
  return Mean(s, Reshape(s, per_example, {-1}), 0);
}

}  // namespace

absl::StatusOr<Output> BuildLoss(const Scope& s, const std::string& name, const ModelOutputs& m,
                                 const Output& labels) {
  const bool softmax_logits =
      m.activation == "softmax" || (m.from_logits && m.activation == "linear");
  const bool sigmoid_logits =
      m.activation == "sigmoid" || (m.from_logits && m.activation == "linear");
  if (name == "sparse_categorical_crossentropy") {
    Output ids = labels.type() == DT_INT64 ? labels : Output(Cast(s, labels, DT_INT64));
    ids = Reshape(s, ids, {-1});
    if (softmax_logits)
      return BatchMean(s, SparseSoftmaxCrossEntropyWithLogits(s, m.logits, ids).loss);
    const PartialTensorShape shape = m.output.shape();
    if (shape.unknown_rank() || shape.dims() != 2 || shape.dim_size(1) < 0) {
      return errors::InvalidArgument(
          "sparse_categorical_crossentropy needs outputs "
          "[batch, classes], got ",
          shape.DebugString());
    }
    Output onehot = OneHot(s, ids, static_cast<int32_t>(shape.dim_size(1)), 1.f, 0.f);
    return BatchMean(s, Neg(s, Sum(s, Mul(s, onehot, Log(s, Clip(s, m.output))), 1)));
  }
  if (name == "categorical_crossentropy") {
    Output y = labels.type() == DT_FLOAT ? labels : Output(Cast(s, labels, DT_FLOAT));
    if (softmax_logits) return BatchMean(s, SoftmaxCrossEntropyWithLogits(s, m.logits, y).loss);
    // As Keras: outputs that are not a softmax are first scaled to sum to 1 per row, then
    // clipped; one fused op (and one for its gradient) instead of about forty nodes.
    return BatchMean(s, CategoricalCrossentropy(s, m.output, y, kEpsilon).loss);
  }
  if (name == "binary_crossentropy") {
    Output y = LikeOutput(s, labels, m.output);
    if (sigmoid_logits) return BatchMean(s, SigmoidCrossEntropyWithLogits(s, m.logits, y));
    Output p = Clip(s, m.output);
    Output ll = Add(s, Mul(s, y, Log(s, p)), Mul(s, Sub(s, 1.f, y), Log(s, Sub(s, 1.f, p))));
    return BatchMean(s, Neg(s, ll));
  }
  if (name == "mse" || name == "mean_squared_error") {
    return BatchMean(s, Square(s, Sub(s, m.output, LikeOutput(s, labels, m.output))));
  }
  return errors::InvalidArgument("unknown loss '", name,
                                 "'; use sparse_categorical_crossentropy, "
                                 "categorical_crossentropy, binary_crossentropy or mse");
}

absl::StatusOr<Output> BuildMetric(const Scope& s, const std::string& name, const std::string& loss,
                                   const ModelOutputs& m, const Output& labels,
                                   std::string* display) {
  std::string kind = name;
  if (name == "accuracy" || name == "acc") {
    *display = "accuracy";
    if (loss == "sparse_categorical_crossentropy") kind = "sparse_categorical_accuracy";
    if (loss == "categorical_crossentropy") kind = "categorical_accuracy";
    if (loss == "binary_crossentropy") kind = "binary_accuracy";
    if (kind == name) {
      return errors::InvalidArgument("metric 'accuracy' needs a classification loss, not '", loss,
                                     "'");
    }
  } else {
    *display = name;
  }
  // One _Accuracy node (one kernel) where the output's rank allows; else the composed ops.
  const PartialTensorShape& shape = m.output.shape();
  const bool rows = !shape.unknown_rank() && shape.dims() == 2;
  const bool floating = m.output.type() == DT_FLOAT || m.output.type() == DT_DOUBLE;
  auto label_as = [&](DataType fallback) -> Output {
    const DataType t = labels.type();
    const bool ok = t == DT_FLOAT || t == DT_DOUBLE || t == DT_INT32 || t == DT_INT64;
    return ok ? labels : Output(Cast(s, labels, fallback));
  };
  if (floating && kind == "sparse_categorical_accuracy" && rows) {
    const bool ids = labels.type() == DT_INT32 || labels.type() == DT_INT64;
    return Output(Accuracy(s, m.output, ids ? labels : Output(Cast(s, labels, DT_INT64)),
                           "sparse_categorical"));
  }
  if (floating && kind == "categorical_accuracy" && rows) {
    return Output(Accuracy(s, m.output, label_as(m.output.type()), "categorical"));
  }
  if (floating && kind == "binary_accuracy" && !shape.unknown_rank()) {
    return Output(Accuracy(s, m.output, label_as(DT_FLOAT), "binary"));
  }
  Output hit;
  if (kind == "sparse_categorical_accuracy") {
    Output ids = labels.type() == DT_INT64 ? labels : Output(Cast(s, labels, DT_INT64));
    hit = Equal(s, ArgMax(s, m.output, 1), Reshape(s, ids, {-1}));
  } else if (kind == "categorical_accuracy") {
    hit = Equal(s, ArgMax(s, m.output, 1), ArgMax(s, labels, 1));
  } else if (kind == "binary_accuracy") {
    Output predicted = Cast(s, Greater(s, m.output, 0.5f), DT_FLOAT);
    hit = Equal(s, predicted, LikeOutput(s, labels, m.output));
  } else {
    return errors::InvalidArgument("unknown metric '", name,
                                   "'; use accuracy, sparse_categorical_accuracy, "
                                   "categorical_accuracy or binary_accuracy");
  }
  return BatchMean(s, Cast(s, hit, DT_FLOAT));
}

}  // namespace rill::keras
