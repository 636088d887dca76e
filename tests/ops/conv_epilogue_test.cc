// Convolutions with an elementwise epilogue (_FusedConv2DElementwise,
// _FusedDepthwiseConv2dNativeElementwise; the optimizer's runtime/passes/conv_epilogue.cc):
// op cases against the float64 reference (float runs oneDNN's post-ops, double the
// program after the convolution), the pass alone, and optimized plans against the same
// graphs run unoptimized.
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "rill/core/fused_elementwise.h"
#include "rill/rill.h"
#include "rill/runtime/passes/passes.h"
#include "support/op_tester.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace conv_epilogue_test {

MarkTested tested({"_FusedConv2DElementwise", "_FusedDepthwiseConv2dNativeElementwise"});

using E = ElementwiseOp;
using ops::IntList;

int64_t Code(E e) { return static_cast<int64_t>(e); }

// Registers: 0 the convolution, then the operands.
// (conv + bias) * scale + shift, HardSwish, / scale, max(shift): PP-OCR's epilogue and more.
const std::vector<int64_t> kAffineHardSwish = {Code(E::kAdd), 0, 1, Code(E::kMul),       2, 4,
                                               Code(E::kAdd), 5, 3, Code(E::kHardSwish), 6, -1,
                                               Code(E::kDiv), 7, 2, Code(E::kMaximum),   8, 3};
// relu6(conv + residual) - scale, then every unary op and a minimum: a residual block's
// end, and each post-op rill maps.
const std::vector<int64_t> kResidual = {
    Code(E::kAdd),  0, 1,  Code(E::kRelu6),    3, -1, Code(E::kSub),     4,  2,
    Code(E::kAbs),  5, -1, Code(E::kNeg),      6, -1, Code(E::kSquare),  7,  -1,
    Code(E::kRelu), 8, -1, Code(E::kIdentity), 9, -1, Code(E::kMinimum), 10, 2};
// min(conv * conv + bias, conv): reads the convolution three times, so no post-ops.
const std::vector<int64_t> kNotAChain = {Code(E::kMul),     0, 0, Code(E::kAdd), 2, 1,
                                         Code(E::kMinimum), 3, 0};

std::vector<OpCase> Cases(int64_t n, int64_t h, int64_t w, int64_t c, int64_t k, int64_t oc,
                          int64_t stride, const std::string& pad) {
  const IntList st = {1, stride, stride, 1};
  const int64_t oh = pad == "SAME" ? (h + stride - 1) / stride : (h - k) / stride + 1;
  const int64_t ow = pad == "SAME" ? (w + stride - 1) / stride : (w - k) / stride + 1;
  const std::string what = absl::StrCat(h, "x", w, "x", c, " k", k, " s", stride, " ", pad);
  const Tensor x = RandomTensor(DT_FLOAT, {n, h, w, c}, -1, 1, 71);
  const Tensor f = RandomTensor(DT_FLOAT, {k, k, c, oc}, -1, 1, 72);
  const Tensor df = RandomTensor(DT_FLOAT, {k, k, c, 2}, -1, 1, 73);
  const Tensor scale = FromDoubles(DT_FLOAT, {}, {1.5});
  const Tensor shift = FromDoubles(DT_FLOAT, {1, 1, 1, 1}, {-0.25});
  std::vector<OpCase> cases;
  for (bool depthwise : {false, true}) {
    const int64_t out_c = depthwise ? c * 2 : oc;
    const Tensor& filter = depthwise ? df : f;
    const Tensor bias = RandomTensor(DT_FLOAT, {out_c}, -1, 1, 74);
    const Tensor residual = RandomTensor(DT_FLOAT, {n, oh, ow, out_c}, -3, 3, 75);
    const std::string op =
        depthwise ? "_FusedDepthwiseConv2dNativeElementwise " : "_FusedConv2DElementwise ";
    auto make = [=](const std::vector<int64_t>& program) {
      return [=](auto s, const auto& in) {
        std::vector<Output> operands(in.begin() + 2, in.end());
        return ops::FusedConvElementwise(s, in[0], in[1], operands, program, st, pad, depthwise);
      };
    };
    cases.push_back({op + "affine hard swish " + what,
                     make(kAffineHardSwish),
                     {x, filter, bias, scale, shift}});
    cases.push_back({op + "residual " + what, make(kResidual), {x, filter, residual, scale}});
    cases.push_back({op + "not a chain " + what, make(kNotAChain), {x, filter, bias}});
  }
  return cases;
}

RILL_OP_CASES(conv_epilogue, [] {
  std::vector<OpCase> all = Cases(2, 9, 7, 3, 3, 5, 1, "SAME");
  for (OpCase& c : Cases(1, 10, 11, 4, 3, 6, 2, "VALID")) all.push_back(std::move(c));
  for (OpCase& c : Cases(2, 16, 16, 8, 1, 16, 1, "SAME")) all.push_back(std::move(c));
  return all;
});

// The optimized plan's values against the unoptimized one's.
void ExpectSameAsUnoptimized(const Scope& s, const Output& out, const Output& x,
                             const Tensor& value, double tolerance) {
  std::vector<Tensor> got[2];
  for (int optimize = 0; optimize < 2; ++optimize) {
    SessionOptions options;
    options.optimize_graph = optimize == 1;
    ClientSession session(s, options, CpuOnly());
    ASSERT_TRUE(session.Run({{x, value}}, {out}, &got[optimize]).ok());
  }
  ExpectTensorNear(got[1][0], got[0][0].dtype(), got[0][0].shape(), ToDoubles(got[0][0]),
                   tolerance);
}

// The plan's node types, with the optimizer on, on the CPU: the fused convolutions are
// oneDNN's (a convolution with post-ops); a GPU has no kernel for them, so the pass leaves
// convolutions placed there alone.
std::vector<std::string> PlanOps(const Scope& s, const Output& out, const Output& x) {
  ClientSession session(s, SessionOptions(), CpuOnly());
  auto plan = session.ViewPlan({{x}, {out}, {}});
  EXPECT_TRUE(plan.ok()) << plan.status();
  std::vector<std::string> ops;
  for (const auto& n : plan.ok() ? plan->nodes : decltype(plan->nodes){}) ops.push_back(n.op);
  return ops;
}

bool Has(const std::vector<std::string>& ops, const std::string& op) {
  return std::find(ops.begin(), ops.end(), op) != ops.end();
}

// An ONNX-style convolution block written with ops:: (BiasAdd, scalars, HardSwish as five
// ops) becomes one node; its values are the unoptimized graph's.
TEST(ConvEpilogue, AConvolutionAndItsChainBecomeOneNode) {
  for (bool depthwise : {false, true}) {
    SCOPED_TRACE(depthwise ? "depthwise" : "Conv2D");
    Scope s = Scope::NewRootScope();
    auto x = ops::Placeholder(s.WithOpName("x"), DT_FLOAT, ops::Placeholder::Shape({1, 8, 8, 4}));
    Tensor fv = RandomTensor(DT_FLOAT, {3, 3, 4, depthwise ? 1 : 4}, -1, 1, 76);
    Output conv =
        depthwise
            ? Output(ops::DepthwiseConv2dNative(s, x, ops::Const(s, fv), {1, 1, 1, 1}, "SAME"))
            : Output(ops::Conv2D(s, x, ops::Const(s, fv), {1, 1, 1, 1}, "SAME"));
    Output y = ops::BiasAdd(s, conv, ops::Const(s, RandomTensor(DT_FLOAT, {4}, -1, 1, 77)));
    y = ops::Add(s, ops::Mul(s, ops::Const(s, 0.8f), y), ops::Const(s, 0.1f));
    Output clip =
        ops::Minimum(s, ops::Maximum(s, ops::Add(s, y, ops::Const(s, 3.f)), ops::Const(s, 0.f)),
                     ops::Const(s, 6.f));
    Output out = ops::RealDiv(s.WithOpName("out"), ops::Mul(s, y, clip), ops::Const(s, 6.f));
    const std::vector<std::string> plan = PlanOps(s, out, x);
    EXPECT_TRUE(Has(
        plan, depthwise ? "_FusedDepthwiseConv2dNativeElementwise" : "_FusedConv2DElementwise"));
    EXPECT_FALSE(Has(plan, "_FusedElementwise"));
    EXPECT_FALSE(Has(plan, "Conv2D") || Has(plan, "DepthwiseConv2dNative"));
    ExpectSameAsUnoptimized(s, out, x, RandomTensor(DT_FLOAT, {1, 8, 8, 4}, -2, 2, 78), 1e-5);
    if (HaveGpu()) {  // placed on the GPU, which has no fused kernel: left as written
      ClientSession gpu(s);
      auto gpu_plan = gpu.ViewPlan({{x}, {out}, {}});
      ASSERT_TRUE(gpu_plan.ok()) << gpu_plan.status();
      bool conv_kept = false;
      for (const auto& n : gpu_plan->nodes) {
        conv_kept |= n.op == "Conv2D" || n.op == "DepthwiseConv2dNative";
      }
      EXPECT_TRUE(conv_kept);
    }
  }
}

// A single op after a convolution joins it too: a BiasAdd (NHWC, a bias of the output's
// channels), an Add to a depthwise convolution. A Relu alone (no operand) does not.
TEST(ConvEpilogue, ALoneBiasAddOrAddJoinsItsConvolution) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s.WithOpName("x"), DT_FLOAT, ops::Placeholder::Shape({2, 6, 6, 3}));
  Output conv = ops::Conv2D(s, x, ops::Const(s, RandomTensor(DT_FLOAT, {3, 3, 3, 4}, -1, 1, 87)),
                            {1, 1, 1, 1}, "SAME");
  Output biased = ops::BiasAdd(s.WithOpName("biased"), conv,
                               ops::Const(s, RandomTensor(DT_FLOAT, {4}, -1, 1, 88)));
  Output dw = ops::DepthwiseConv2dNative(
      s, biased, ops::Const(s, RandomTensor(DT_FLOAT, {3, 3, 4, 1}, -1, 1, 89)), {1, 2, 2, 1},
      "VALID");
  Output out = ops::Add(s.WithOpName("out"), dw, ops::Const(s, 0.5f));
  std::vector<std::string> plan = PlanOps(s, out, x);
  EXPECT_TRUE(Has(plan, "_FusedConv2DElementwise"));
  EXPECT_TRUE(Has(plan, "_FusedDepthwiseConv2dNativeElementwise"));
  EXPECT_FALSE(Has(plan, "BiasAdd") || Has(plan, "Add"));
  ExpectSameAsUnoptimized(s, out, x, RandomTensor(DT_FLOAT, {2, 6, 6, 3}, -2, 2, 90), 1e-5);
  Output relu = ops::Relu(s, dw);
  plan = PlanOps(s, relu, x);
  EXPECT_TRUE(Has(plan, "Relu"));
  EXPECT_TRUE(Has(plan, "DepthwiseConv2dNative"));
  ExpectSameAsUnoptimized(s, relu, x, RandomTensor(DT_FLOAT, {2, 6, 6, 3}, -2, 2, 91), 1e-5);
}

// What the pass leaves alone: a convolution read elsewhere too, a chain that is not a
// chain of the convolution's value, a chain with no operand, an operand that would grow
// the output.
TEST(ConvEpilogue, ConvolutionsThePassLeavesAlone) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s.WithOpName("x"), DT_FLOAT, ops::Placeholder::Shape({1, 6, 6, 2}));
  auto conv = [&](int seed) {
    return ops::Conv2D(s, x, ops::Const(s, RandomTensor(DT_FLOAT, {3, 3, 2, 3}, -1, 1, seed)),
                       {1, 1, 1, 1}, "SAME");
  };
  Output shared = conv(80);  // read by its chain and by a Sum
  Output a = ops::Relu(s, ops::Add(s, shared, ops::Const(s, 1.f)));
  Output b = ops::Sum(s, shared, ops::Const(s, {1, 2}));
  Output c1 = conv(81);  // read twice inside its chain
  Output c = ops::Minimum(s, ops::Add(s, ops::Mul(s, c1, c1), ops::Const(s, 1.f)), c1);
  Output c3 = conv(84);  // a chain of unary steps alone: no operand for the fused node
  Output e = ops::Relu(s, ops::Abs(s, c3));
  Output c2 = conv(82);  // an operand [2, 1, 1, 1] broadcasts the batch up to 2
  Output d =
      ops::Relu(s, ops::Add(s, c2, ops::Const(s, RandomTensor(DT_FLOAT, {2, 1, 1, 1}, 0, 1, 83))));
  ClientSession session(s);
  auto plan = session.ViewPlan({{x}, {a, b, c, d, e}, {}});
  ASSERT_TRUE(plan.ok()) << plan.status();
  int convs = 0, fused = 0;
  for (const auto& n : plan->nodes) {
    convs += n.op == "Conv2D";
    fused += n.op == "_FusedConv2DElementwise";
  }
  EXPECT_EQ(convs, 4);
  EXPECT_EQ(fused, 0);
}

// The kernel checks what the pass could not: operands that do not fit the output.
TEST(ConvEpilogue, AnOperandThatDoesNotFitIsAnError) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT);
  auto extra = ops::Placeholder(s, DT_FLOAT);
  Output y = ops::FusedConvElementwise(
      s, x, ops::Const(s, RandomTensor(DT_FLOAT, {1, 1, 2, 3}, -1, 1, 84)), {extra},
      {Code(E::kAdd), 0, 1}, {1, 1, 1, 1}, "SAME");
  ClientSession session(s);
  std::vector<Tensor> out;
  const absl::Status st = session.Run({{x, RandomTensor(DT_FLOAT, {1, 4, 4, 2}, -1, 1, 85)},
                                       {extra, RandomTensor(DT_FLOAT, {2, 1, 1, 3}, -1, 1, 86)}},
                                      {y}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_NE(st.message().find("[2,1,1,3]"), std::string::npos) << st;
  EXPECT_NE(st.message().find("[1,4,4,3]"), std::string::npos) << st;
}

}  // namespace conv_epilogue_test
}  // namespace
}  // namespace rill::testing
