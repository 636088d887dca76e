// The compositions of plain TensorFlow ops that Keras's losses and metrics are made of
// (as tf.keras.backend writes them). Keras builds them; the graph optimizer's composite
// rules (runtime/passes/composites.cc) recognise them, whoever built them, and run each
// as one fused kernel. Keeping one definition keeps the two in step.
#pragma once

#include "rill/ops/scope.h"

namespace rill::keras::backend {

// Keras's clip of probabilities before a log: [kEpsilon, 1 - kEpsilon].
inline constexpr float kEpsilon = 1e-7f;

// min(max(p, kEpsilon), 1 - kEpsilon), written as Keras writes it.
Output ClipProbabilities(const Scope& s, const Output& p);
// The per-example categorical cross-entropy of probabilities `output` [batch, classes]
// that need not sum to 1 (Keras scales each row to sum to 1, then clips):
// -sum(target * log(clip(output / sum(output, -1)))), over the last axis.
Output CategoricalCrossentropy(const Scope& s, const Output& target, const Output& output);
// The mean of every element (a loss's or a metric's batch mean): Mean(Reshape(x, [-1]), 0).
Output MeanOfAll(const Scope& s, const Output& x);
// Accuracies, each the mean hit rate over the batch (float).
// argmax(output, 1) == argmax(target, 1).
Output CategoricalAccuracy(const Scope& s, const Output& target, const Output& output);
// argmax(output, 1) == ids, with int64 class ids of any shape holding one per row.
Output SparseCategoricalAccuracy(const Scope& s, const Output& ids, const Output& output);
// (output > 0.5) == target, with float targets of output's size.
Output BinaryAccuracy(const Scope& s, const Output& target, const Output& output);

}  // namespace rill::keras::backend
