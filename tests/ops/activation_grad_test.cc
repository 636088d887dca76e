// The gradients of Relu6, Elu, Selu and LeakyRelu, and of their gradient ops (second
// order), against central differences. Inputs keep away from the kinks (0, and 6 for
// Relu6), where the one-sided slopes differ.
#include "gradient_checker.h"
#include "rill/ops/activation_ops.h"

namespace rill::testing {
namespace {
namespace activation_grad_test {

using namespace ::rill::ops;  // NOLINT
using Xs = std::vector<Output>;

Tensor Values(std::vector<double> v) { return FromDoubles(DT_DOUBLE, {3, 4}, v); }

struct Case {
  std::string op;
  GradBuildFn build;
  std::vector<Tensor> inputs;
};

std::vector<Case> Cases() {
  const Tensor g = RandomTensor(DT_DOUBLE, {3, 4}, -1, 1, 1);
  // Both sides of 0 and of 6 for Relu6; Elu's outputs are above -1, Selu's above -1.758.
  const Tensor x = Values({-3, -0.5, 0.4, 1, 2.5, 4, 5.5, 6.5, 7, -1.2, 3.3, 8});
  const Tensor elu_y = Values({-0.9, -0.5, -0.2, 0.3, 1, 2, -0.7, 0.6, 3, -0.1, 0.2, 1.5});
  const Tensor selu_y = Values({-1.5, -0.9, -0.2, 0.3, 1, 2, -1.1, 0.6, 3, -0.4, 0.2, 1.5});
  auto unary = [](auto make) {
    return [make](const Scope& s, const Xs& in) { return Output(make(s, in[0])); };
  };
  auto binary = [](auto make) {
    return [make](const Scope& s, const Xs& in) { return Output(make(s, in[0], in[1])); };
  };
  const auto alpha = LeakyRelu::Alpha(0.3f);
  return {
      {"Relu6", unary([](auto s, auto v) { return Relu6(s, v); }), {x}},
      {"Elu", unary([](auto s, auto v) { return Elu(s, v); }), {x}},
      {"Selu", unary([](auto s, auto v) { return Selu(s, v); }), {x}},
      {"LeakyRelu", unary([alpha](auto s, auto v) { return LeakyRelu(s, v, alpha); }), {x}},
      {"Relu6Grad", binary([](auto s, auto dy, auto v) { return Relu6Grad(s, dy, v); }), {g, x}},
      {"EluGrad", binary([](auto s, auto dy, auto y) { return EluGrad(s, dy, y); }), {g, elu_y}},
      {"SeluGrad", binary([](auto s, auto dy, auto y) { return SeluGrad(s, dy, y); }), {g, selu_y}},
      {"LeakyReluGrad",
       binary([alpha](auto s, auto dy, auto v) { return LeakyReluGrad(s, dy, v, alpha); }),
       {g, x}},
  };
}

class ActivationGradient : public ::testing::TestWithParam<int> {};

TEST_P(ActivationGradient, SymbolicMatchesNumeric) {
  static const std::vector<Case> cases = Cases();
  const Case& c = cases[GetParam()];
  SCOPED_TRACE(c.op);
  ExpectGradientMatchesNumeric(c.build, c.inputs);
}
INSTANTIATE_TEST_SUITE_P(Activations, ActivationGradient,
                         ::testing::Range(0, static_cast<int>(Cases().size())));

const bool kMarked = [] {
  for (const Case& c : Cases()) GradTestedOps().insert(c.op);
  return true;
}();

}  // namespace activation_grad_test
}  // namespace
}  // namespace rill::testing
