// The gradient checks' cases of the fused ops: the optimizer's and Keras's fused layers,
// and the ends of _FusedMatMul and _FusedConv2D with TensorFlow's fused_ops.
#include "gradient_cases.h"

namespace rill::testing::gradient_cases {
namespace {
namespace gradient_fused_cases {

// TensorFlow's batch norm fusion of a convolution, _FusedConv2D(x, f, scale, offset, mean,
// variance) with fused_ops [FusedBatchNorm, act], differentiated through the ops it fuses.
// Mean and variance are constants (in the dtype the checker runs in): no gradient reaches
// them, as through FusedBatchNormV3 in inference.
Output ConvBatchNorm(const Scope& s, const Xs& in, const std::string& act, uint32_t seed) {
  std::vector<std::string> fused_ops = {"FusedBatchNorm"};
  if (!act.empty()) fused_ops.push_back(act);
  const Output mean = Cast(s, Const(s, Vals({2}, -0.2, 0.2, seed)), in[2].type());
  const Output variance = Cast(s, Const(s, Vals({2}, 0.5, 1.5, seed + 1)), in[2].type());
  const Operation op = internal::NodeBuilder(s, "_FusedConv2D")
                           .Input(in[0])
                           .Input(in[1])
                           .Inputs({in[2], in[3], mean, variance})
                           .Attr("strides", std::vector<int64_t>{1, 1, 1, 1})
                           .Attr("padding", std::string("SAME"))
                           .Attr("fused_ops", fused_ops)
                           .Attr("epsilon", 0.001f)
                           .Finalize();
  return op.node() == nullptr ? Output() : Output(op.node(), 0);
}

void FusedBatchNormCases(CaseList& l, uint32_t seed) {
  for (const char* a : {"", "Elu", "Tanh"}) {
    const std::string act = a;
    l.cases.push_back(
        {"_FusedConv2D_[FusedBatchNorm," + act + "]",
         {"_FusedConv2D"},
         [act, seed](const Scope& s, const Xs& in) { return ConvBatchNorm(s, in, act, seed + 4); },
         {Vals({1, 3, 2, 2}, -1, 1, seed), Vals({2, 2, 2, 2}, -1, 1, seed + 1),
          Vals({2}, 0.5, 1.5, seed + 2), Vals({2}, -0.5, 0.5, seed + 3)}});
    seed += 6;
  }
}

}  // namespace gradient_fused_cases
}  // namespace

using gradient_fused_cases::FusedBatchNormCases;

// The ends of _FusedMatMul and _FusedConv2D that _BiasActivationGrad does not take, with
// the product of k = 1 kept at least 0.07 from every kink (a away from 0, b positive, a
// small bias); a negative LeakyRelu alpha takes the path that builds the product again.
void FusedEpilogueCases(CaseList& l) {
  const std::pair<const char*, float> ends[] = {
      {"", 0.2f}, {"Relu6", 0.2f}, {"Elu", 0.2f}, {"LeakyRelu", 0.3f}, {"LeakyRelu", -0.4f}};
  uint32_t seed = 140;
  for (const auto& [a, alpha] : ends) {
    const std::string act = a;
    const float al = alpha;
    l.cases.push_back(
        {absl::StrCat("_FusedMatMul_[BiasAdd,", act, "]_alpha", al),
         {"_FusedMatMul"},
         [act, al](const Scope& s, const Xs& in) {
           return Output(FusedMatMul(s, in[0], in[1], in[2], act, MatMul::TransposeB(true), al));
         },
         {AwayFromZero({3, 1}, seed), Vals({2, 1}, 0.6, 1, seed + 1),
          Vals({2}, -0.05, 0.05, seed + 2)}});
    // The same of a 1x1 convolution of one channel (its product rebuilt for alpha < 0).
    l.cases.push_back(
        {absl::StrCat("_FusedConv2D_[BiasAdd,", act, "]_alpha", al),
         {"_FusedConv2D"},
         [act, al](const Scope& s, const Xs& in) {
           return Output(FusedConv2D(s, in[0], in[1], in[2], {1, 1, 1, 1}, "VALID", act, al));
         },
         {AwayFromZero({1, 2, 2, 1}, seed), Vals({1, 1, 1, 2}, 0.6, 1, seed + 1),
          Vals({2}, -0.05, 0.05, seed + 2)}});
    seed += 3;
  }
  FusedBatchNormCases(l, seed);
}

// Fused ops of the graph optimizer and Keras, and a whole network.
void FusedCases(CaseList& l) {
  // The fused end of a Dense layer, per activation (relu away from its kink), and the
  // second order through its gradient's two outputs.
  uint32_t seed = 80;
  for (const char* a : {"relu", "sigmoid", "tanh"}) {
    const std::string act = a;
    l.cases.push_back({"_BiasActivation_" + act,
                       {"_BiasActivation"},
                       [act](const Scope& s, const Xs& in) {
                         return Output(BiasActivation(s, in[0], in[1], act));
                       },
                       {AwayFromZero({2, 3, 4}, seed), Vals({4}, -0.1, 0.1, seed + 1)}});
    // y as the forward pass could make it: sigmoid's in (0, 1), tanh's in (-1, 1).
    Tensor y = act == "sigmoid" ? Vals({3, 4}, 0.1, 0.9, seed + 2)
               : act == "tanh"  ? Vals({3, 4}, -0.9, 0.9, seed + 2)
                                : AwayFromZero({3, 4}, seed + 2);
    for (int k : {0, 1}) {
      l.cases.push_back({"_BiasActivationGrad_" + act + (k == 0 ? "_backprops" : "_bias_backprop"),
                         {"_BiasActivationGrad"},
                         [act, k](const Scope& s, const Xs& in) {
                           BiasActivationGrad d(s, in[0], in[1], act);
                           return k == 0 ? d.backprops : d.bias_backprop;
                         },
                         {Vals({3, 4}, -1, 1, seed + 3), y}});
    }
    seed += 4;
  }
  // The remapper's fused layers, through their activation's and base op's gradients.
  for (const char* a : {"sigmoid", "tanh"}) {
    const std::string act = a;
    l.cases.push_back({"_FusedMatMul_" + act,
                       {"_FusedMatMul"},
                       [act](const Scope& s, const Xs& in) {
                         const std::string op = act == "sigmoid" ? "Sigmoid" : "Tanh";
                         return Output(
                             FusedMatMul(s, in[0], in[1], in[2], op, MatMul::TransposeB(true)));
                       },
                       {Vals({3, 4}, -1, 1, seed), Vals({2, 4}, -1, 1, seed + 1),
                        Vals({2}, -0.5, 0.5, seed + 2)}});
    l.cases.push_back(
        {"_FusedConv2D_" + act,
         {"_FusedConv2D"},
         [act](const Scope& s, const Xs& in) {
           const std::string op = act == "sigmoid" ? "Sigmoid" : "Tanh";
           return Output(FusedConv2D(s, in[0], in[1], in[2], {1, 2, 1, 1}, "SAME", op));
         },
         {Vals({2, 5, 4, 2}, -1, 1, seed + 3), Vals({3, 2, 2, 3}, -1, 1, seed + 4),
          Vals({3}, -0.5, 0.5, seed + 5)}});
    seed += 6;
  }
  // Keras's categorical cross-entropy of probabilities: the gradient flows to the output
  // only (the labels, a constant here, are data).
  l.cases.push_back(
      {"_CategoricalCrossentropy",
       {"_CategoricalCrossentropy"},
       [](const Scope& s, const Xs& in) {
         Tensor labels(DT_DOUBLE, TensorShape({3, 4}));
         labels.flat<double>().setValues({0, 1, 0, 0, 0.25, 0.25, 0.5, 0, 0, 0, 0, 1});
         Output y = Cast(s, Const(s, labels), in[0].type());
         return Output(CategoricalCrossentropy(s, in[0], y).loss);
       },
       {Vals({3, 4}, 0.1, 1, 76)}});
  // A network: several paths into one input, broadcasting, reductions and activations.
  l.cases.push_back(
      {"mlp",
       {},
       [](const Scope& s, const Xs& in) {
         Output h = Tanh(s, Add(s, MatMul(s, in[0], in[1]), in[2]));
         Output logits = MatMul(s, h, in[1], MatMul::TransposeB(true));
         return Output(Mean(s, Add(s, Square(s, logits), Mul(s, in[0], in[0])), {0, 1}));
       },
       {Vals({4, 3}, -1, 1, 61), Vals({3, 3}, -1, 1, 62), Vals({3}, -1, 1, 63)}});
}

}  // namespace rill::testing::gradient_cases
