#include "rill/runtime/keras/losses.h"

#include "rill/ops/array_ops.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/nn_ops.h"
#include "rill/runtime/keras/backend.h"

namespace rill::keras {
namespace {

using namespace ::rill::ops;  // NOLINT
namespace kb = backend;

Output AsFloat(const Scope& s, const Output& x) {
  return x.type() == DT_FLOAT ? x : Output(Cast(s, x, DT_FLOAT));
}
// Labels as float, shaped like the output ([N] labels for an [N, 1] output).
Output LikeOutput(const Scope& s, const Output& labels, const Output& out) {
  return Reshape(s, AsFloat(s, labels), Shape(s, out));
}
Output ClassIds(const Scope& s, const Output& labels) {
  return labels.type() == DT_INT64 ? labels : Output(Cast(s, labels, DT_INT64));
}

}  // namespace

absl::StatusOr<Output> BuildLoss(const Scope& s, const std::string& name, const ModelOutputs& m,
                                 const Output& labels) {
  const bool softmax_logits =
      m.activation == "softmax" || (m.from_logits && m.activation == "linear");
  const bool sigmoid_logits =
      m.activation == "sigmoid" || (m.from_logits && m.activation == "linear");
  if (name == "sparse_categorical_crossentropy") {
    // The loss's kernels read the class ids on the host, where they check them: the placer
    // computes them there (pass 6, even when the model requests a GPU).
    Output ids = Reshape(s, ClassIds(s, labels), {-1});
    if (softmax_logits)
      return kb::MeanOfAll(s, SparseSoftmaxCrossEntropyWithLogits(s, m.logits, ids).loss);
    const PartialTensorShape shape = m.output.shape();
    if (shape.unknown_rank() || shape.dims() != 2 || shape.dim_size(1) < 0) {
      return errors::InvalidArgument(
          "sparse_categorical_crossentropy needs outputs "
          "[batch, classes], got ",
          shape.DebugString());
    }
    Output onehot = OneHot(s, ids, static_cast<int32_t>(shape.dim_size(1)), 1.f, 0.f);
    return kb::MeanOfAll(
        s, Neg(s, Sum(s, Mul(s, onehot, Log(s, kb::ClipProbabilities(s, m.output))), 1)));
  }
  if (name == "categorical_crossentropy") {
    Output y = AsFloat(s, labels);
    if (softmax_logits) {
      return kb::MeanOfAll(s, SoftmaxCrossEntropyWithLogits(s, m.logits, y).loss);
    }
    // As Keras: outputs that are not a softmax are first scaled to sum to 1 per row, then
    // clipped (the graph optimizer runs it and its gradient as one fused kernel).
    return kb::MeanOfAll(s, kb::CategoricalCrossentropy(s, y, m.output));
  }
  if (name == "binary_crossentropy") {
    Output y = LikeOutput(s, labels, m.output);
    if (sigmoid_logits) return kb::MeanOfAll(s, SigmoidCrossEntropyWithLogits(s, m.logits, y));
    Output p = kb::ClipProbabilities(s, m.output);
    Output ll = Add(s, Mul(s, y, Log(s, p)), Mul(s, Sub(s, 1.f, y), Log(s, Sub(s, 1.f, p))));
    return kb::MeanOfAll(s, Neg(s, ll));
  }
  if (name == "mse" || name == "mean_squared_error") {
    return kb::MeanOfAll(s, Square(s, Sub(s, m.output, LikeOutput(s, labels, m.output))));
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
  if (kind == "sparse_categorical_accuracy") {
    return kb::SparseCategoricalAccuracy(s, ClassIds(s, labels), m.output);
  }
  if (kind == "categorical_accuracy") return kb::CategoricalAccuracy(s, labels, m.output);
  if (kind == "binary_accuracy") return kb::BinaryAccuracy(s, AsFloat(s, labels), m.output);
  return errors::InvalidArgument("unknown metric '", name,
                                 "'; use accuracy, sparse_categorical_accuracy, "
                                 "categorical_accuracy or binary_accuracy");
}

}  // namespace rill::keras
