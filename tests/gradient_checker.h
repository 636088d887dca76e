// Numeric gradient checks, as TensorFlow's gradient_checker: the Jacobian built by
// AddSymbolicGradients against central differences.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "test_util.h"

namespace rill::testing {

struct GradCheckOptions {
  // Placeholders with the inputs' full shapes (gradients decided at construction) or with
  // unknown shapes (gradients that work out shapes at run time).
  bool known_shapes = true;
  double delta = 1e-6;  // central-difference step, in float64
};

// Builds y from inputs placeholders of dtype `dt` (float64 or float32).
using GradBuildFn = std::function<Output(const Scope&, const std::vector<Output>&)>;

// The largest difference between the symbolic Jacobian in `dt` and the float64 numeric
// one, relative to max(1, |numeric|). `inputs` are float64 values; they are converted
// to `dt` for the symbolic side.
absl::StatusOr<double> GradientError(const GradBuildFn& build, const std::vector<Tensor>& inputs,
                                     DataType dt, const GradCheckOptions& options = {});

// Expects build's gradient to match the numeric one in float64 (within 1e-6) and float32
// (1e-3), with the input shapes known at construction and unknown (gtest failures).
void ExpectGradientMatchesNumeric(const GradBuildFn& build, const std::vector<Tensor>& inputs);

// Ops whose gradient a numeric check covers; the completeness test checks the gradient
// registry against it.
std::set<std::string>& GradTestedOps();

}  // namespace rill::testing
