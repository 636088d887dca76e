// Every differentiable op's gradient against central differences: float64 within 1e-6,
// float32 within 1e-3, with input shapes known at construction and unknown. The fused ops'
// cases are in gradient_fused_cases.cc.
#include "gradient_cases.h"

namespace rill::testing {
namespace {
namespace gradient_test {

using namespace gradient_cases;  // NOLINT

// Arithmetic on two inputs, with broadcasting.
void BinaryMathCases(CaseList& l) {
  const TensorShape s23({2, 3});
  auto add = [](const Scope& s, Output a, Output b) { return Add(s, a, b); };
  l.Binary("Add", add, Vals(s23, -1, 1, 1), Vals({3}, -1, 1, 2));
  l.Binary("Add", add, Vals({2, 1}, -1, 1, 3), Vals({1, 3}, -1, 1, 4));
  l.Binary(
      "AddV2", [](const Scope& s, Output a, Output b) { return AddV2(s, a, b); },
      Vals({2, 1}, -1, 1, 30), Vals(s23, -1, 1, 31));
  l.Binary(
      "Sub", [](const Scope& s, Output a, Output b) { return Sub(s, a, b); }, Vals(s23, -1, 1, 5),
      Vals({1, 3}, -1, 1, 6));
  l.Binary(
      "Mul", [](const Scope& s, Output a, Output b) { return Mul(s, a, b); }, Vals(s23, -1, 1, 7),
      Vals({2, 1}, -1, 1, 8));
  l.Binary(
      "Div", [](const Scope& s, Output a, Output b) { return Div(s, a, b); }, Vals(s23, -1, 1, 9),
      Vals({3}, 0.5, 1.5, 10));
  l.Binary(
      "RealDiv", [](const Scope& s, Output a, Output b) { return RealDiv(s, a, b); },
      Vals(s23, -1, 1, 57), Vals({3}, 0.5, 1.5, 58));
  l.Binary(
      "SquaredDifference",
      [](const Scope& s, Output a, Output b) { return SquaredDifference(s, a, b); },
      Vals(s23, -1, 1, 59), Vals({2, 1}, -1, 1, 60));
  l.Binary(
      "Pow", [](const Scope& s, Output a, Output b) { return Pow(s, a, b); },
      Vals(s23, 0.5, 1.5, 11), Vals({3}, 0.5, 2, 12));
  // Away from FloorMod's jumps: x / y in (0.1, 0.9) + an integer.
  l.Binary(
      "FloorMod", [](const Scope& s, Output a, Output b) { return FloorMod(s, a, b); },
      Vals(s23, 2.2, 2.8, 61), Vals({3}, 1, 1, 62));
  // TruncateMod and Mod: negative dividends, away from their jumps too.
  l.Binary(
      "TruncateMod", [](const Scope& s, Output a, Output b) { return TruncateMod(s, a, b); },
      Vals(s23, -2.8, -2.2, 73), Vals({3}, 1, 1, 74));
  l.Binary(
      "Mod", [](const Scope& s, Output a, Output b) { return Mod(s, a, b); },
      Vals(s23, 2.2, 2.8, 75), Vals({2, 1}, 1, 1, 76));
  l.Binary(
      "Atan2", [](const Scope& s, Output a, Output b) { return Atan2(s, a, b); },
      Vals(s23, -1, 1, 63), Vals({2, 1}, 0.5, 1.5, 64));
  l.Binary(
      "DivNoNan", [](const Scope& s, Output a, Output b) { return DivNoNan(s, a, b); },
      Vals(s23, -1, 1, 65), Vals({3}, 0.5, 1.5, 66));
  l.Binary(
      "MulNoNan", [](const Scope& s, Output a, Output b) { return MulNoNan(s, a, b); },
      Vals(s23, -1, 1, 67), Vals({2, 1}, 0.5, 1.5, 68));
  l.Binary(
      "Xlogy", [](const Scope& s, Output a, Output b) { return Xlogy(s, a, b); },
      Vals(s23, -1, 1, 69), Vals({3}, 0.5, 1.5, 70));
  l.Binary(
      "Xlog1py", [](const Scope& s, Output a, Output b) { return Xlog1py(s, a, b); },
      Vals(s23, -1, 1, 71), Vals({3}, 0.5, 1.5, 72));
  l.Binary(
      "Xdivy", [](const Scope& s, Output a, Output b) { return Xdivy(s, a, b); },
      Vals(s23, -1, 1, 73), Vals({2, 1}, 0.5, 1.5, 74));
  l.Binary(
      "Maximum", [](const Scope& s, Output a, Output b) { return Maximum(s, a, b); },
      Vals(s23, -1, 1, 13), Vals({3}, -1, 1, 14));
  l.Binary(
      "Minimum", [](const Scope& s, Output a, Output b) { return Minimum(s, a, b); },
      Vals(s23, -1, 1, 15), Vals({2, 1}, -1, 1, 16));
}

// Unary math and activations.
void UnaryMathCases(CaseList& l) {
  const TensorShape s23({2, 3});
  l.Unary(
      "Neg", [](const Scope& s, Output x) { return Neg(s, x); }, Vals(s23, -1, 1, 17));
  l.Unary(
      "Abs", [](const Scope& s, Output x) { return Abs(s, x); }, AwayFromZero(s23, 18));
  l.Unary(
      "Square", [](const Scope& s, Output x) { return Square(s, x); }, Vals(s23, -1, 1, 19));
  l.Unary(
      "Sqrt", [](const Scope& s, Output x) { return Sqrt(s, x); }, Vals(s23, 0.5, 2, 20));
  l.Unary(
      "Exp", [](const Scope& s, Output x) { return Exp(s, x); }, Vals(s23, -1, 1, 21));
  l.Unary(
      "Log", [](const Scope& s, Output x) { return Log(s, x); }, Vals(s23, 0.5, 2, 22));
  l.Unary(
      "Relu", [](const Scope& s, Output x) { return Relu(s, x); }, AwayFromZero(s23, 23));
  l.Unary(
      "Sigmoid", [](const Scope& s, Output x) { return Sigmoid(s, x); }, Vals(s23, -2, 2, 24));
  l.Unary(
      "Tanh", [](const Scope& s, Output x) { return Tanh(s, x); }, Vals(s23, -2, 2, 25));
  l.Unary(
      "Rsqrt", [](const Scope& s, Output x) { return Rsqrt(s, x); }, Vals(s23, 0.5, 2, 40));
  l.Unary(
      "Reciprocal", [](const Scope& s, Output x) { return Reciprocal(s, x); },
      AwayFromZero(s23, 41));
  l.Unary(
      "Sin", [](const Scope& s, Output x) { return Sin(s, x); }, Vals(s23, -3, 3, 42));
  l.Unary(
      "Cos", [](const Scope& s, Output x) { return Cos(s, x); }, Vals(s23, -3, 3, 43));
  l.Unary(
      "Erf", [](const Scope& s, Output x) { return Erf(s, x); }, Vals(s23, -2, 2, 44));
  l.Unary(
      "Softplus", [](const Scope& s, Output x) { return Softplus(s, x); }, Vals(s23, -3, 3, 45));
  l.Unary(
      "Softsign", [](const Scope& s, Output x) { return Softsign(s, x); }, Vals(s23, -3, 3, 48));
  l.Unary(
      "Lgamma", [](const Scope& s, Output x) { return Lgamma(s, x); }, Vals(s23, 0.2, 4, 49));
  l.Unary(
      "Digamma", [](const Scope& s, Output x) { return Digamma(s, x); }, Vals(s23, 0.2, 4, 50));
  // The order is a constant (no gradient); x positive.
  l.Unary(
      "Polygamma",
      [](const Scope& s, Output x) {
        return Polygamma(s, Cast(s, Const(s, FromDoubles(DT_DOUBLE, {3}, {1, 2, 0})), x.type()), x);
      },
      Vals(s23, 0.5, 3, 51));
  l.Unary(
      "Expm1", [](const Scope& s, Output x) { return Expm1(s, x); }, Vals(s23, -2, 2, 46));
  l.Unary(
      "Log1p", [](const Scope& s, Output x) { return Log1p(s, x); }, Vals(s23, -0.5, 2, 47));
  l.Unary(
      "Sinh", [](const Scope& s, Output x) { return Sinh(s, x); }, Vals(s23, -2, 2, 48));
  l.Unary(
      "Cosh", [](const Scope& s, Output x) { return Cosh(s, x); }, Vals(s23, -2, 2, 49));
  l.Unary(
      "Tan", [](const Scope& s, Output x) { return Tan(s, x); }, Vals(s23, -1, 1, 50));
  l.Unary(
      "Asin", [](const Scope& s, Output x) { return Asin(s, x); }, Vals(s23, -0.8, 0.8, 51));
  l.Unary(
      "Acos", [](const Scope& s, Output x) { return Acos(s, x); }, Vals(s23, -0.8, 0.8, 52));
  l.Unary(
      "Atan", [](const Scope& s, Output x) { return Atan(s, x); }, Vals(s23, -3, 3, 53));
  l.Unary(
      "Asinh", [](const Scope& s, Output x) { return Asinh(s, x); }, Vals(s23, -3, 3, 54));
  l.Unary(
      "Acosh", [](const Scope& s, Output x) { return Acosh(s, x); }, Vals(s23, 1.2, 3, 55));
  l.Unary(
      "Atanh", [](const Scope& s, Output x) { return Atanh(s, x); }, Vals(s23, -0.8, 0.8, 56));
  l.Unary(
      "Softmax", [](const Scope& s, Output x) { return Softmax(s, x); }, Vals({2, 4}, -2, 2, 26));
  l.Unary(
      "LogSoftmax", [](const Scope& s, Output x) { return LogSoftmax(s, x); },
      Vals({2, 4}, -2, 2, 27));
}

// Shapes, slices, copies and joins.
void ArrayCases(CaseList& l) {
  const TensorShape s23({2, 3});
  l.Unary(
      "Identity", [](const Scope& s, Output x) { return Identity(s, x); }, Vals(s23, -1, 1, 28));
  l.Unary(
      "EnsureShape",
      [](const Scope& s, Output x) {
        return EnsureShape(s, x, PartialTensorShape({2, -1}));
      },
      Vals(s23, -1, 1, 28));
  l.Unary(
      "Reshape",
      [](const Scope& s, Output x) {
        return Reshape(s, x, {3, -1});
      },
      Vals(s23, -1, 1, 29));
  l.Unary(
      "ExpandDims", [](const Scope& s, Output x) { return ExpandDims(s, x, 1); },
      Vals(s23, -1, 1, 30));
  l.Unary(
      "Squeeze", [](const Scope& s, Output x) { return Squeeze(s, x); },
      Vals({2, 1, 3}, -1, 1, 31));
  l.Unary(
      "Transpose",
      [](const Scope& s, Output x) {
        return Transpose(s, x, {1, 2, 0});
      },
      Vals({2, 3, 2}, -1, 1, 32));
  l.Unary(
      "Slice",
      [](const Scope& s, Output x) {
        return Slice(s, x, {1, 1}, {2, -1});
      },
      Vals({3, 4}, -1, 1, 33));
  l.Unary(
      "Pad",
      [](const Scope& s, Output x) {
        return Pad(s, x, {{1, 0}, {0, 2}});
      },
      Vals(s23, -1, 1, 34));
  l.Unary(
      "BroadcastTo",
      [](const Scope& s, Output x) {
        return BroadcastTo(s, x, {2, 2, 3});
      },
      Vals({2, 1, 3}, -1, 1, 35));
  l.Unary(
      "Fill",
      [](const Scope& s, Output x) {
        return Fill(s, {2, 3}, x);
      },
      Vals({}, -1, 1, 36));
  l.Unary(
      "Cast", [](const Scope& s, Output x) { return Mul(s, Cast(s, x, DT_DOUBLE), 3.0); },
      Vals(s23, -1, 1, 37));
  l.Binary(
      "AddN",
      [](const Scope& s, Output a, Output b) {
        return AddN(s, {a, b, a});
      },
      Vals(s23, -1, 1, 38), Vals(s23, -1, 1, 39));
  l.Binary(
      "ConcatV2",
      [](const Scope& s, Output a, Output b) {
        return Concat(s, {a, b, a}, 1);
      },
      Vals({2, 2}, -1, 1, 40), Vals(s23, -1, 1, 41));
}

// Products, every transposition, and reductions.
void MatMulAndReductionCases(CaseList& l) {
  const TensorShape s23({2, 3});
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      TensorShape a = ta ? TensorShape({3, 2}) : TensorShape({2, 3});
      TensorShape b = tb ? TensorShape({4, 3}) : TensorShape({3, 4});
      l.Binary(
          "MatMul",
          [ta, tb](const Scope& s, Output x, Output y) {
            return MatMul(s, x, y, MatMul::TransposeA(ta).TransposeB(tb));
          },
          Vals(a, -1, 1, 42), Vals(b, -1, 1, 43));
    }
  }
  const TensorShape s234({2, 3, 4});
  l.Unary(
      "Sum", [](const Scope& s, Output x) { return Sum(s, x, 1); }, Vals(s234, -1, 1, 44));
  l.Unary(
      "EuclideanNorm",
      [](const Scope& s, Output x) {
        return EuclideanNorm(s, x, {0, 2});
      },
      AwayFromZero(s234, 46));
  l.Unary(
      "EuclideanNorm",
      [](const Scope& s, Output x) {
        return EuclideanNorm(s, x, -1, EuclideanNorm::KeepDims(true));
      },
      AwayFromZero(s234, 47));
  l.Unary(
      "Sum",
      [](const Scope& s, Output x) {
        return Sum(s, x, {0, 2}, Sum::KeepDims(true));
      },
      Vals(s234, -1, 1, 45));
  l.Unary(
      "Mean",
      [](const Scope& s, Output x) {
        return Mean(s, x, {-1, 0});
      },
      Vals(s234, -1, 1, 46));
  l.Unary(
      "Mean",
      [](const Scope& s, Output x) {
        return Mean(s, x, {0, 1, 2});
      },
      Vals(s234, -1, 1, 47));
  l.Unary(  // down to one element, kept as [1, 1, 1]: _MeanAllGrad too
      "Mean",
      [](const Scope& s, Output x) {
        return Mean(s, x, {0, 1, 2}, Mean::KeepDims(true));
      },
      Vals(s234, -1, 1, 149));
  l.Unary(  // its own gradient (second order of a loss's batch mean)
      "_MeanAllGrad",
      [](const Scope& s, Output dy) {
        return MeanAllGrad(s, dy, {2, 3});
      },
      Vals({1, 1}, -1, 1, 150));
  l.Unary(
      "Max", [](const Scope& s, Output x) { return Max(s, x, 2); }, Vals(s234, -1, 1, 48));
  l.Unary(
      "Min",
      [](const Scope& s, Output x) {
        return Min(s, x, {0, 1}, Min::KeepDims(true));
      },
      Vals(s234, -1, 1, 49));
}

// Activation gradients as ops of their own, and the losses.
void ActivationGradAndLossCases(CaseList& l) {
  const TensorShape s23({2, 3});
  l.Binary(
      "ReluGrad", [](const Scope& s, Output g, Output x) { return ReluGrad(s, g, x); },
      Vals(s23, -1, 1, 50), AwayFromZero(s23, 51));
  l.Binary(
      "SigmoidGrad", [](const Scope& s, Output y, Output dy) { return SigmoidGrad(s, y, dy); },
      Vals(s23, 0.1, 0.9, 52), Vals(s23, -1, 1, 53));
  l.Binary(
      "TanhGrad", [](const Scope& s, Output y, Output dy) { return TanhGrad(s, y, dy); },
      Vals(s23, -0.9, 0.9, 54), Vals(s23, -1, 1, 55));
  l.Binary(
      "SoftmaxCrossEntropyWithLogits",
      [](const Scope& s, Output f, Output l) {
        return SoftmaxCrossEntropyWithLogits(s, f, l).loss;
      },
      Vals({3, 4}, -2, 2, 56), Vals({3, 4}, 0.1, 1, 57));
  Tensor labels(DT_INT64, TensorShape({3}));
  labels.flat<int64_t>().setValues({2, 0, 3});
  l.Binary(
      "SparseSoftmaxCrossEntropyWithLogits",
      [](const Scope& s, Output f, Output l) {
        return SparseSoftmaxCrossEntropyWithLogits(s, f, l).loss;
      },
      Vals({3, 4}, -2, 2, 58), labels);
  // Through the backprop output too (second order), labels not summing to 1.
  l.Binary(
      "SoftmaxCrossEntropyWithLogits",
      [](const Scope& s, Output f, Output l) {
        SoftmaxCrossEntropyWithLogits r(s, f, l);
        return Output(Concat(s, {Mul(s, r.backprop, f), ExpandDims(s, r.loss, 1)}, 1));
      },
      Vals({3, 4}, -2, 2, 65), Vals({3, 4}, 0.1, 1, 66));
  l.Binary(
      "SparseSoftmaxCrossEntropyWithLogits",
      [](const Scope& s, Output f, Output l) {
        return Output(Mul(s, SparseSoftmaxCrossEntropyWithLogits(s, f, l).backprop, f));
      },
      Vals({3, 4}, -2, 2, 67), labels);
  l.Unary(
      "L2Loss", [](const Scope& s, Output x) { return L2Loss(s, x); }, Vals(s23, -1, 1, 64));
  // Bounds a scalar and of t's shape; t keeps away from them.
  l.cases.push_back(
      {"ClipByValue",
       {"ClipByValue"},
       [](const Scope& s, const Xs& in) { return Output(ClipByValue(s, in[0], in[1], in[2])); },
       {FromDoubles(DT_DOUBLE, s23, {-0.9, -0.2, 0.1, 0.35, 0.8, -0.6}),
        FromDoubles(DT_DOUBLE, {}, {-0.5}),
        FromDoubles(DT_DOUBLE, s23, {0.5, 0.5, 0, 0.3, 1, 0.5})}});
  l.Binary(
      "SigmoidCrossEntropyWithLogits",
      [](const Scope& s, Output x, Output z) { return SigmoidCrossEntropyWithLogits(s, x, z); },
      Vals(s23, -3, 3, 59), Vals(s23, 0, 1, 60));
}

// Convolutions, pooling and their gradients; bias.
void ConvolutionCases(CaseList& l) {
  for (const char* pad : {"SAME", "VALID"}) {
    const std::string p = pad;
    l.Binary(
        "Conv2D",
        [p](const Scope& s, Output x, Output f) {
          return Conv2D(s, x, f, {1, 2, 1, 1}, p);
        },
        Vals({2, 5, 4, 2}, -1, 1, 64), Vals({3, 2, 2, 3}, -1, 1, 65));
    l.Unary(
        "MaxPool",
        [p](const Scope& s, Output x) {
          return MaxPool(s, x, {1, 2, 2, 1}, {1, 2, 1, 1}, p);
        },
        Vals({2, 5, 4, 2}, -1, 1, 66));
    l.Unary(
        "AvgPool",
        [p](const Scope& s, Output x) {
          return AvgPool(s, x, {1, 3, 2, 1}, {1, 2, 2, 1}, p);
        },
        Vals({2, 5, 4, 2}, -1, 1, 67));
  }
  l.Binary(
      "Conv2DBackpropInput",
      [](const Scope& s, Output f, Output dy) {
        return Conv2DBackpropInput(s, {2, 5, 4, 2}, f, dy, {1, 2, 1, 1}, "SAME");
      },
      Vals({3, 2, 2, 3}, -1, 1, 68), Vals({2, 3, 4, 3}, -1, 1, 69));
  l.Binary(
      "Conv2DBackpropFilter",
      [](const Scope& s, Output x, Output dy) {
        return Conv2DBackpropFilter(s, x, {3, 2, 2, 3}, dy, {1, 2, 1, 1}, "SAME");
      },
      Vals({2, 5, 4, 2}, -1, 1, 70), Vals({2, 3, 4, 3}, -1, 1, 71));
  for (const char* pad : {"SAME", "VALID"}) {  // 2 channels, multiplier 2
    const std::string p = pad;
    l.Binary(
        "DepthwiseConv2dNative",
        [p](const Scope& s, Output x, Output f) {
          return DepthwiseConv2dNative(s, x, f, {1, 2, 1, 1}, p);
        },
        Vals({2, 5, 4, 2}, -1, 1, 80), Vals({3, 2, 2, 2}, -1, 1, 81));
  }
  l.Binary(
      "DepthwiseConv2dNativeBackpropInput",
      [](const Scope& s, Output f, Output dy) {
        return DepthwiseConv2dNativeBackpropInput(s, {2, 5, 4, 2}, f, dy, {1, 2, 1, 1}, "SAME");
      },
      Vals({3, 2, 2, 2}, -1, 1, 82), Vals({2, 3, 4, 4}, -1, 1, 83));
  l.Binary(
      "DepthwiseConv2dNativeBackpropFilter",
      [](const Scope& s, Output x, Output dy) {
        return DepthwiseConv2dNativeBackpropFilter(s, x, {3, 2, 2, 2}, dy, {1, 2, 1, 1}, "SAME");
      },
      Vals({2, 5, 4, 2}, -1, 1, 84), Vals({2, 3, 4, 4}, -1, 1, 85));
  l.Unary(
      "AvgPoolGrad",
      [](const Scope& s, Output g) {
        return AvgPoolGrad(s, {1, 4, 4, 2}, g, {1, 2, 2, 1}, {1, 2, 2, 1}, "SAME");
      },
      Vals({1, 2, 2, 2}, -1, 1, 72));
  l.Binary(
      "BiasAdd", [](const Scope& s, Output v, Output b) { return BiasAdd(s, v, b); },
      Vals({2, 3, 4}, -1, 1, 73), Vals({4}, -1, 1, 74));
  l.Unary(
      "BiasAddGrad", [](const Scope& s, Output d) { return BiasAddGrad(s, d); },
      Vals({2, 3, 4}, -1, 1, 75));
}

std::vector<Case> Cases() {
  CaseList l;
  BinaryMathCases(l);
  UnaryMathCases(l);
  ArrayCases(l);
  MatMulAndReductionCases(l);
  ActivationGradAndLossCases(l);
  ConvolutionCases(l);
  FusedCases(l);
  FusedEpilogueCases(l);
  ControlCases(l);
  return l.cases;
}

class GradientCheck : public ::testing::TestWithParam<int> {};

TEST_P(GradientCheck, SymbolicMatchesNumeric) {
  static const std::vector<Case> cases = Cases();
  const Case& k = cases[GetParam()];
  SCOPED_TRACE(k.name);
  ExpectGradientMatchesNumeric(k.build, k.inputs);
}
INSTANTIATE_TEST_SUITE_P(AllOps, GradientCheck,
                         ::testing::Range(0, static_cast<int>(Cases().size())));

struct MarkGradTested {
  MarkGradTested() {
    for (const Case& k : Cases())
      for (const auto& op : k.ops) GradTestedOps().insert(op);
  }
} mark_grad_tested;

}  // namespace gradient_test
}  // namespace
}  // namespace rill::testing
