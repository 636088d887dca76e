// The gradients of the rearranging ops against central differences, with input shapes
// known at construction and unknown: each op's full Jacobian, so a gradient that sends a
// value to the wrong position fails.
#include "gradient_checker.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/rearrange_ops.h"

namespace rill::testing {
namespace {
namespace rearrange_grad_test {

using namespace ::rill::ops;  // NOLINT
using Xs = std::vector<Output>;

Tensor Vals(const TensorShape& shape, uint32_t seed) {
  return RandomTensor(DT_DOUBLE, shape, -1, 1, seed);
}
Output Ints(const Scope& s, std::vector<int64_t> shape, std::vector<double> v) {
  return Const(s, FromDoubles(DT_INT32, TensorShape(shape), v));
}

struct Case {
  std::string op;
  GradBuildFn build;
  std::vector<Tensor> inputs;
};

std::vector<Case> Movers() {
  return {
      {"Roll",
       [](const Scope& s, const Xs& in) {
         return Output(Roll(s, in[0], Ints(s, {2}, {1, -2}), Ints(s, {2}, {0, 2})));
       },
       {Vals({3, 2, 4}, 1)}},
      {"ReverseSequence",
       [](const Scope& s, const Xs& in) {
         return Output(ReverseSequence(s, in[0], Ints(s, {3}, {4, 0, 2}), 1));
       },
       {Vals({3, 4, 2}, 2)}},
      {"MirrorPad REFLECT",
       [](const Scope& s, const Xs& in) {
         return Output(MirrorPad(s, in[0], Ints(s, {2, 2}, {1, 1, 2, 2}), "REFLECT"));
       },
       {Vals({2, 3}, 3)}},
      {"MirrorPad SYMMETRIC",
       [](const Scope& s, const Xs& in) {
         return Output(MirrorPad(s, in[0], Ints(s, {2, 2}, {2, 0, 1, 3}), "SYMMETRIC"));
       },
       {Vals({2, 3}, 4)}},
      {"MirrorPadGrad",
       [](const Scope& s, const Xs& in) {
         return Output(internal::MirrorPadGrad(s, in[0], Ints(s, {2, 2}, {1, 1, 2, 2}), "REFLECT"));
       },
       {Vals({4, 7}, 5)}},
      {"SpaceToDepth",
       [](const Scope& s, const Xs& in) { return Output(SpaceToDepth(s, in[0], 2)); },
       {Vals({1, 4, 2, 3}, 6)}},
      {"DepthToSpace",
       [](const Scope& s, const Xs& in) {
         return Output(DepthToSpace(s, in[0], 2, DepthToSpace::DataFormat("NCHW")));
       },
       {Vals({1, 8, 2, 1}, 7)}},
      {"SpaceToBatchND",
       [](const Scope& s, const Xs& in) {
         return Output(
             SpaceToBatchND(s, in[0], Ints(s, {2}, {2, 2}), Ints(s, {2, 2}, {0, 0, 2, 0})));
       },
       {Vals({2, 2, 4, 1}, 8)}},
      {"BatchToSpaceND",
       [](const Scope& s, const Xs& in) {
         return Output(
             BatchToSpaceND(s, in[0], Ints(s, {2}, {2, 2}), Ints(s, {2, 2}, {0, 0, 2, 0})));
       },
       {Vals({8, 1, 3, 1}, 9)}},
  };
}

std::vector<Case> Diagonals() {
  return {
      {"Diag",
       [](const Scope& s, const Xs& in) { return Output(Diag(s, in[0])); },
       {Vals({3, 2}, 10)}},
      {"DiagPart",
       [](const Scope& s, const Xs& in) { return Output(DiagPart(s, in[0])); },
       {Vals({3, 2, 3, 2}, 11)}},
      {"MatrixDiag",
       [](const Scope& s, const Xs& in) { return Output(MatrixDiag(s, in[0])); },
       {Vals({2, 3}, 12)}},
      {"MatrixDiagPart square",
       [](const Scope& s, const Xs& in) { return Output(MatrixDiagPart(s, in[0])); },
       {Vals({2, 3, 3}, 13)}},
      {"MatrixDiagPart wide",
       [](const Scope& s, const Xs& in) { return Output(MatrixDiagPart(s, in[0])); },
       {Vals({2, 2, 4}, 14)}},
      {"MatrixSetDiag",
       [](const Scope& s, const Xs& in) {
         return Output(Mul(s, MatrixSetDiag(s, in[0], in[1]), in[0]));
       },
       {Vals({2, 3, 2}, 15), Vals({2, 2}, 16)}},
      {"MatrixBandPart",
       [](const Scope& s, const Xs& in) {
         return Output(MatrixBandPart(s, in[0], Const(s, int64_t{1}), Const(s, int64_t{2})));
       },
       {Vals({5, 5}, 17)}},
  };
}

std::vector<Case> Cases() {
  std::vector<Case> c = Movers(), d = Diagonals();
  c.insert(c.end(), d.begin(), d.end());
  return c;
}

class RearrangeGradient : public ::testing::TestWithParam<int> {};

TEST_P(RearrangeGradient, SymbolicMatchesNumeric) {
  static const std::vector<Case> cases = Cases();
  const Case& c = cases[GetParam()];
  SCOPED_TRACE(c.op);
  ExpectGradientMatchesNumeric(c.build, c.inputs);
}
INSTANTIATE_TEST_SUITE_P(Rearrange, RearrangeGradient,
                         ::testing::Range(0, static_cast<int>(Cases().size())));

// The op each case checks: its name up to the first space ("MirrorPad REFLECT").
const bool kMarked = [] {
  for (const Case& c : Cases()) GradTestedOps().insert(c.op.substr(0, c.op.find(' ')));
  return true;
}();

}  // namespace rearrange_grad_test
}  // namespace
}  // namespace rill::testing
