// What the gradient checks' case files share (gradient_test.cc runs every case): a case,
// the list the families of ops append to, and the inputs they draw.
#pragma once

#include <string>
#include <vector>

#include "gradient_checker.h"
#include "rill/ops/conv_ops.h"
#include "rill/ops/gradient_ops.h"
#include "rill/ops/gradients.h"
#include "rill/ops/nn_ops.h"

namespace rill::testing::gradient_cases {

using namespace ::rill::ops;  // NOLINT
using Xs = std::vector<Output>;

inline Tensor Vals(const TensorShape& shape, double lo, double hi, uint32_t seed) {
  return RandomTensor(DT_DOUBLE, shape, lo, hi, seed);
}
// Values in +-[0.2, 1.2]: away from the kinks of Relu, Abs and friends at 0.
inline Tensor AwayFromZero(const TensorShape& shape, uint32_t seed) {
  auto v = ToDoubles(Vals(shape, -1, 1, seed));
  for (double& x : v) x = x < 0 ? x - 0.2 : x + 0.2;
  return FromDoubles(DT_DOUBLE, shape, v);
}

struct Case {
  std::string name;
  std::vector<std::string> ops;
  GradBuildFn build;
  std::vector<Tensor> inputs;
};

// The cases, appended in order by one function per family of ops.
class CaseList {
 public:
  template <typename F>
  void Binary(const std::string& op, F make, Tensor x, Tensor y) {
    cases.push_back({op + "_" + x.shape().DebugString() + "_" + y.shape().DebugString(),
                     {op},
                     [make](const Scope& s, const Xs& in) { return Output(make(s, in[0], in[1])); },
                     {x, y}});
  }
  template <typename F>
  void Unary(const std::string& op, F make, Tensor x) {
    cases.push_back(
        {op, {op}, [make](const Scope& s, const Xs& in) { return Output(make(s, in[0])); }, {x}});
  }
  std::vector<Case> cases;
};

// The fused ops' cases (gradient_fused_cases.cc).
void FusedCases(CaseList& l);
void FusedEpilogueCases(CaseList& l);
// Switch, Merge and Print (gradient_control_cases.cc).
void ControlCases(CaseList& l);

}  // namespace rill::testing::gradient_cases
