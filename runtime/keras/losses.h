// Keras losses and metrics as graph builders. Crossentropy uses the fused, stable ops on
// the last layer's logits when it ends in softmax or sigmoid (as Keras does), else works
// on probabilities clipped to [1e-7, 1 - 1e-7].
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "rill/ops/scope.h"

namespace rill::keras {

struct ModelOutputs {
  Output output;           // after the last activation
  Output logits;           // before it
  std::string activation;  // of the last layer
  bool from_logits = false;
};

// The batch mean of the loss named `name` of `out` against `labels`.
absl::StatusOr<Output> BuildLoss(const Scope& scope, const std::string& name,
                                 const ModelOutputs& out, const Output& labels);
// The batch mean of metric `name` ("accuracy" picks the kind that fits `loss`); the name
// reported in logs is set in *display.
absl::StatusOr<Output> BuildMetric(const Scope& scope, const std::string& name,
                                   const std::string& loss, const ModelOutputs& out,
                                   const Output& labels, std::string* display);

}  // namespace rill::keras
