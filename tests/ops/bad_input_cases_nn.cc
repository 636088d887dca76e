// Valid recipes and op-specific bad inputs: convolution and pooling, losses, random,
// state, training and the graph's own ops (Const, Placeholder, Variable, NoOp, _Copy).
#include <cstdint>

#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_nn {

using enum Where;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;
using Ints = std::vector<int64_t>;

// Caught by the kernel only: the shape function of these gradient ops does not compare
// its inputs' values with the other inputs' shapes.
void InKernel(const std::string& what, const Recipe& r, std::vector<std::string> mentions = {}) {
  AddCase(what + " (in the kernel)", r, kRun, kInvalid, mentions);
}

AttrMap Window(Ints ksize, Ints strides, std::string padding) {
  AttrMap a{{"strides", std::move(strides)}, {"padding", std::move(padding)}};
  if (!ksize.empty()) a["ksize"] = std::move(ksize);
  return a;
}

// The convolutions' attributes: stride 1, SAME.
AttrMap Conv() { return Window({}, {1, 1, 1, 1}, "SAME"); }

AttrMap Activation(std::string name) { return {{"activation", std::move(name)}}; }

// The cases are split into one function a family: one function of every case took GCC
// minutes to optimize.

void ConvCases() {
  const AttrMap conv = Conv();
  AddRecipe({"Conv2D", {F({1, 4, 4, 2}), F({3, 3, 2, 5})}, conv});
  Both("input channels that differ from the filter's",
       {"Conv2D", {F({1, 4, 4, 3}), F({3, 3, 2, 5})}, conv}, {"3 channels", "[3,3,2,5]"});
  Both("a rank-3 input", {"Conv2D", {F({4, 4, 2}), F({3, 3, 2, 5})}, conv}, {"[4,4,2]"});
  AddCase("a zero stride",
          {"Conv2D", {F({1, 4, 4, 2}), F({3, 3, 2, 5})}, Window({}, {1, 0, 0, 1}, "SAME")},
          kConstruction, kInvalid, {"stride"});
  AddCase("padding 'FULL'",
          {"Conv2D", {F({1, 4, 4, 2}), F({3, 3, 2, 5})}, Window({}, {1, 1, 1, 1}, "FULL")},
          kConstruction, kInvalid, {"FULL"});
  Both("a VALID filter larger than the input",
       {"Conv2D", {F({1, 2, 2, 2}), F({3, 3, 2, 5})}, Window({}, {1, 1, 1, 1}, "VALID")});
  AttrMap dilated = conv;
  dilated["dilations"] = Ints{1, 2, INT64_MAX, 1};
  Both("a dilation whose window overflows int64",
       {"Conv2D", {F({1, 4, 4, 2}), F({3, 3, 2, 5})}, dilated},
       {"dilated window's width overflows"});
  AttrMap dilated_valid = Window({}, {1, 1, 1, 1}, "VALID");
  dilated_valid["dilations"] = Ints{1, 3, 3, 1};  // a 7x7 window
  Both("a dilated VALID filter larger than the input",
       {"Conv2D", {F({1, 6, 6, 2}), F({3, 3, 2, 5})}, dilated_valid}, {"height"});
  dilated["dilations"] = Ints{1, 1, 1, 2};
  AddCase("a dilation over the channels", {"Conv2D", {F({1, 4, 4, 2}), F({3, 3, 2, 5})}, dilated},
          kConstruction, kInvalid, {"dilations"});

  AddRecipe(
      {"Conv2DBackpropInput", {I({4}, {1, 4, 4, 2}), F({3, 3, 2, 5}), F({1, 4, 4, 5})}, conv});
  InKernel("input_sizes that disagree with out_backprop",
           {"Conv2DBackpropInput", {I({4}, {1, 6, 6, 2}), F({3, 3, 2, 5}), F({1, 4, 4, 5})}, conv});
  Both("input_sizes of length 3",
       {"Conv2DBackpropInput", {I({3}, {4, 4, 2}), F({3, 3, 2, 5}), F({1, 4, 4, 5})}, conv});
  Both("a negative input size",
       {"Conv2DBackpropInput", {I({4}, {1, -4, 4, 2}), F({3, 3, 2, 5}), F({1, 4, 4, 5})}, conv});

  AddRecipe(
      {"Conv2DBackpropFilter", {F({1, 4, 4, 2}), I({4}, {3, 3, 2, 5}), F({1, 4, 4, 5})}, conv});
  InKernel(
      "filter_sizes that disagree with the input's channels",
      {"Conv2DBackpropFilter", {F({1, 4, 4, 2}), I({4}, {3, 3, 7, 5}), F({1, 4, 4, 5})}, conv});
  InKernel(
      "out_backprop of the wrong spatial size",
      {"Conv2DBackpropFilter", {F({1, 4, 4, 2}), I({4}, {3, 3, 2, 5}), F({1, 3, 3, 5})}, conv});
  Both("a negative filter size",
       {"Conv2DBackpropFilter", {F({1, 4, 4, 2}), I({4}, {-3, 3, 2, 5}), F({1, 4, 4, 5})}, conv});
}

void PoolCases() {
  const AttrMap pool = Window({1, 2, 2, 1}, {1, 2, 2, 1}, "VALID");
  for (const char* op : {"MaxPool", "AvgPool"}) {
    AddRecipe({op, {F({1, 4, 4, 2})}, pool});
    Both("a rank-3 input", {op, {F({4, 4, 2})}, pool}, {"[4,4,2]"});
    AddCase("a zero window", {op, {F({1, 4, 4, 2})}, Window({1, 0, 2, 1}, {1, 2, 2, 1}, "VALID")},
            kConstruction, kInvalid, {"ksize"});
    AddCase("a window over the batch",
            {op, {F({1, 4, 4, 2})}, Window({2, 2, 2, 1}, {1, 2, 2, 1}, "VALID")}, kConstruction,
            kInvalid);
    Both("a VALID window larger than the input", {op, {F({1, 1, 1, 2})}, pool});
    Both("a SAME window whose padding overflows int64",
         {op, {F({1, 4, 4, 2})}, Window({1, INT64_MAX, 2, 1}, {1, 1, 1, 1}, "SAME")}, {"overflow"});
  }
  AddRecipe({"MaxPoolGrad", {F({1, 4, 4, 2}), F({1, 2, 2, 2}), F({1, 2, 2, 2})}, pool});
  InKernel("a gradient of the wrong shape",
           {"MaxPoolGrad", {F({1, 4, 4, 2}), F({1, 2, 2, 2}), F({1, 3, 3, 2})}, pool},
           {"[1,3,3,2]"});
  InKernel("orig_output of the wrong shape",
           {"MaxPoolGrad", {F({1, 4, 4, 2}), F({1, 2, 2, 3}), F({1, 2, 2, 2})}, pool});
  AddRecipe({"AvgPoolGrad", {I({4}, {1, 4, 4, 2}), F({1, 2, 2, 2})}, pool});
  Both("orig_input_shape of length 3", {"AvgPoolGrad", {I({3}, {4, 4, 2}), F({1, 2, 2, 2})}, pool});
  InKernel("a gradient of the wrong shape",
           {"AvgPoolGrad", {I({4}, {1, 4, 4, 2}), F({1, 3, 3, 2})}, pool}, {"[1,3,3,2]"});
  Both("a negative orig_input_shape",
       {"AvgPoolGrad", {I({4}, {1, -4, 4, 2}), F({1, 2, 2, 2})}, pool});
}

void BiasCases() {
  AddRecipe({"BiasAdd", {F({2, 3}), F({3})}, {}});
  Both("a bias of the wrong length", {"BiasAdd", {F({2, 3}), F({4})}, {}}, {"[4]"});
  Both("a bias of rank 2", {"BiasAdd", {F({2, 3}), F({1, 3})}, {}}, {"[1,3]"});
  AddRecipe({"BiasAddGrad", {F({2, 3})}, {}});
  Both("a scalar gradient", {"BiasAddGrad", {F({})}, {}});
  AddCase("data_format 'NWHC'",
          {"BiasAddGrad", {F({2, 3})}, {{"data_format", std::string("NWHC")}}}, kConstruction,
          kInvalid, {"NWHC"});
}

void FusedElementwiseCases() {
  const AttrMap relu = Activation("relu");
  const AttrMap add_program{{"program", Ints{0, 0, 1}}};
  AddRecipe({"_FusedElementwise", {F({2, 3}), F({3})}, add_program});
  Both("fused inputs that do not broadcast",
       {"_FusedElementwise", {F({2, 3}), F({4})}, add_program}, {"[4]"});
  AddCase("a fused step reading a register not yet made",
          {"_FusedElementwise", {F({2, 3}), F({3})}, {{"program", Ints{0, 0, 2}}}}, kConstruction,
          kInvalid, {"registers 0 to 1"});
  AddCase("an unknown fused op code",
          {"_FusedElementwise", {F({2, 3}), F({3})}, {{"program", Ints{99, 0, 1}}}}, kConstruction,
          kInvalid, {"op code 99"});
  AddCase("an empty fused program",
          {"_FusedElementwise", {F({2, 3}), F({3})}, {{"program", Ints{}}}}, kConstruction,
          kInvalid, {"1 to 64 steps"});
  AddRecipe({"_BiasActivation", {F({2, 3}), F({3})}, relu});
  Both("a bias of the wrong length", {"_BiasActivation", {F({2, 3}), F({4})}, relu}, {"[4]"});
  Both("a bias of rank 2", {"_BiasActivation", {F({2, 3}), F({1, 3})}, relu}, {"[1,3]"});
  Both("a scalar value", {"_BiasActivation", {F({}), F({1})}, relu});
  AddCase("activation 'softmax'",
          {"_BiasActivation", {F({2, 3}), F({3})}, {{"activation", std::string("softmax")}}},
          kConstruction, kInvalid, {"softmax"});
  AddRecipe({"_BiasActivationGrad", {F({2, 3}), F({2, 3})}, relu});
  Both("outputs of another shape", {"_BiasActivationGrad", {F({2, 3}), F({2, 4})}, relu},
       {"[2,4]"});
  Both("scalars", {"_BiasActivationGrad", {F({}), F({})}, relu});
  AddCase("activation 'elu'",
          {"_BiasActivationGrad", {F({2, 3}), F({2, 3})}, {{"activation", std::string("elu")}}},
          kConstruction, kInvalid, {"elu"});
}

void LossCases() {
  AddRecipe({"SoftmaxCrossEntropyWithLogits", {F({2, 3}), F({2, 3})}, {}});
  Both("labels of another shape", {"SoftmaxCrossEntropyWithLogits", {F({2, 3}), F({2, 4})}, {}},
       {"[2,4]"});
  Both("rank-1 logits", {"SoftmaxCrossEntropyWithLogits", {F({3}), F({3})}, {}}, {"[3]"});
  // Found by the graph_ops fuzzer: labels of rank 0 beside features of unknown rank.
  AddCase("scalar labels beside logits of unknown rank (at construction)",
          {"SoftmaxCrossEntropyWithLogits", {F({2, 3}), F({})}, {}}, kConstruction, kInvalid,
          {"labels"});
  AddRecipe({"SparseSoftmaxCrossEntropyWithLogits", {F({2, 3}), I({2}, {0, 2})}, {}});
  Both("labels of the wrong length",
       {"SparseSoftmaxCrossEntropyWithLogits", {F({2, 3}), I({3}, {0, 1, 2})}, {}});
  AddCase("a label past the classes (in the kernel)",
          {"SparseSoftmaxCrossEntropyWithLogits", {F({2, 3}), I({2}, {0, 3})}, {}}, kRun, kInvalid,
          {"3"});
  AddCase("a negative label (in the kernel)",
          {"SparseSoftmaxCrossEntropyWithLogits", {F({2, 3}), I({2}, {-1, 0})}, {}}, kRun, kInvalid,
          {"-1"});
  AddRecipe({"SigmoidCrossEntropyWithLogits", {F({2, 3}), F({2, 3})}, {}});
  Both("labels of another shape", {"SigmoidCrossEntropyWithLogits", {F({2, 3}), F({3, 2})}, {}},
       {"[3,2]"});
  Both("broadcastable but unequal labels",
       {"SigmoidCrossEntropyWithLogits", {F({2, 3}), F({3})}, {}});

  AddRecipe({"_CategoricalCrossentropy", {F({2, 3}), F({2, 3})}, {}});
  Both("labels of another shape", {"_CategoricalCrossentropy", {F({2, 3}), F({2, 4})}, {}},
       {"[2,4]"});
  Both("rank-1 outputs", {"_CategoricalCrossentropy", {F({3}), F({3})}, {}}, {"[3]"});
  AddCase("epsilon 0.5", {"_CategoricalCrossentropy", {F({2, 3}), F({2, 3})}, {{"epsilon", 0.5f}}},
          kConstruction, kInvalid, {"epsilon"});
  AddCase("a negative epsilon",
          {"_CategoricalCrossentropy", {F({2, 3}), F({2, 3})}, {{"epsilon", -1.f}}}, kConstruction,
          kInvalid, {"epsilon"});
}

void AccuracyCases() {
  const AttrMap categorical{{"kind", std::string("categorical")}};
  const AttrMap sparse{{"kind", std::string("sparse_categorical")}};
  AddRecipe({"_Accuracy", {F({2, 3}), F({2, 3})}, categorical});
  Both("labels of another shape", {"_Accuracy", {F({2, 3}), F({2, 4})}, categorical}, {"[2,4]"});
  Both("rank-1 outputs", {"_Accuracy", {F({3}), F({3})}, categorical}, {"[3]"});
  AddCase("kind 'top_k'", {"_Accuracy", {F({2, 3}), F({2, 3})}, {{"kind", std::string("top_k")}}},
          kConstruction, kInvalid, {"top_k"});
  AddCase("float class ids", {"_Accuracy", {F({2, 3}), F({2})}, sparse}, kConstruction, kInvalid,
          {"int32"});
  InKernel("class ids of another count", {"_Accuracy", {F({2, 3}), I({3})}, sparse}, {"[3]"});
  InKernel("binary labels of another count",
           {"_Accuracy", {F({2, 3}), F({5})}, {{"kind", std::string("binary")}}}, {"[5]"});
  InKernel("outputs with no classes", {"_Accuracy", {F({2, 0}), F({2, 0})}, categorical},
           {"no classes"});
}

void RandomCases() {
  AddRecipe({"Dropout", {F({2, 3})}, {{"rate", 0.5f}}});
  AddCase("rate 1", {"Dropout", {F({2, 3})}, {{"rate", 1.f}}}, kConstruction, kInvalid, {"rate"});
  AddCase("a negative rate", {"Dropout", {F({2, 3})}, {{"rate", -0.1f}}}, kConstruction, kInvalid,
          {"rate"});

  for (const char* op : {"RandomUniform", "RandomStandardNormal", "TruncatedNormal"}) {
    AddRecipe({op, {I({2}, {2, 3})}, {{"dtype", DT_FLOAT}}});
    Both("a negative dim", {op, {I({2}, {-2, 3})}, {{"dtype", DT_FLOAT}}}, {"-2"});
    Both("a shape of rank 2", {op, {I({1, 2}, {2, 3})}, {{"dtype", DT_FLOAT}}});
    AddCase("dtype int32", {op, {I({2}, {2, 3})}, {{"dtype", DT_INT32}}}, kConstruction, kInvalid,
            {"int32"});
  }

  const Tensor shape = I({2}, {2, 3}), lo = I({}, {-4}), hi = I({}, {6});
  AddRecipe({"RandomUniformInt", {shape, lo, hi}, {}});
  Both("minval equal to maxval", {"RandomUniformInt", {shape, hi, hi}, {}}, {"6 >= 6"});
  Both("minval above maxval", {"RandomUniformInt", {shape, hi, lo}, {}}, {"6 >= -4"});
  Both("a minval of rank 1", {"RandomUniformInt", {shape, I({1}, {0}), hi}, {}}, {"minval"});
  Both("a maxval of rank 1", {"RandomUniformInt", {shape, lo, I({1}, {9})}, {}}, {"maxval"});
  Both("a negative dim", {"RandomUniformInt", {I({2}, {-2, 3}), lo, hi}, {}}, {"-2"});
  AddCase("float bounds", {"RandomUniformInt", {shape, F({}, {0}), F({}, {1})}, {}}, kConstruction,
          kInvalid, {"float"});

  // RandomShuffle takes any value; only its attrs can be wrong.
  AddRecipe({"RandomShuffle", {F({4, 2})}, {}});
  AddCase("a float seed", {"RandomShuffle", {F({4})}, {{"seed", 1.f}}}, kConstruction, kInvalid,
          {"seed"});
  AddCase("a string seed2", {"RandomShuffle", {F({4})}, {{"seed2", std::string("2")}}},
          kConstruction, kInvalid, {"seed2"});

  AddRecipe({"Multinomial", {F({2, 3}), I({}, {4})}, {}});
  Both("logits of rank 1", {"Multinomial", {F({3}), I({}, {4})}, {}}, {"[3]"});
  Both("logits of rank 3", {"Multinomial", {F({1, 2, 3}), I({}, {4})}, {}}, {"[1,2,3]"});
  Both("logits with no classes", {"Multinomial", {F({2, 0}), I({}, {4})}, {}}, {"no classes"});
  Both("a negative num_samples", {"Multinomial", {F({2, 3}), I({}, {-1})}, {}}, {"-1"});
  Both("num_samples of rank 1", {"Multinomial", {F({2, 3}), I({1}, {4})}, {}}, {"num_samples"});
  AddCase("int32 logits", {"Multinomial", {I({2, 3}), I({}, {4})}, {}}, kConstruction, kInvalid,
          {"int32"});
}

void StateCases() {
  // State: ref inputs are variables (initialized to the value given).
  AddRecipe({"Assign", {F({2, 3}), F({2, 3})}, {}});
  AddRecipe({"IsVariableInitialized", {F({2, 3})}, {}});
  Both("a value of another shape", {"Assign", {F({2, 3}), F({3, 2})}, {}}, {"[3,2]"});
  for (const char* op : {"AssignAdd", "AssignSub"}) {
    AddRecipe({op, {F({2, 3}), F({2, 3})}, {}});
    Both("a value of another shape", {op, {F({2, 3}), F({3, 2})}, {}}, {"[3,2]"});
    Both("a broadcastable value", {op, {F({2, 3}), F({3})}, {}}, {"[3]"});
  }
}

void OptimizerCases() {
  AddRecipe({"ApplyGradientDescent", {F({2, 3}), F({}, {0.1f}), F({2, 3})}, {}});
  Both("a delta of another shape",
       {"ApplyGradientDescent", {F({2, 3}), F({}, {0.1f}), F({3, 2})}, {}});
  Both("a learning rate that is not a scalar",
       {"ApplyGradientDescent", {F({2, 3}), F({2}), F({2, 3})}, {}});
  AddRecipe({"ApplyMomentum", {F({2, 3}), F({2, 3}), F({}, {0.1f}), F({2, 3}), F({}, {0.9f})}, {}});
  Both("a gradient of another shape",
       {"ApplyMomentum", {F({2, 3}), F({2, 3}), F({}, {0.1f}), F({3, 2}), F({}, {0.9f})}, {}});
  AddCase("an accumulator of another shape",
          {"ApplyMomentum", {F({2, 3}), F({3, 2}), F({}, {0.1f}), F({2, 3}), F({}, {0.9f})}, {}},
          kConstruction, kInvalid, {"[3,2]"});
  Both("a momentum that is not a scalar",
       {"ApplyMomentum", {F({2, 3}), F({2, 3}), F({}, {0.1f}), F({2, 3}), F({2})}, {}});
  const Tensor s = F({}, {0.5f});
  AddRecipe({"ApplyAdam", {F({2, 3}), F({2, 3}), F({2, 3}), s, s, s, s, s, s, F({2, 3})}, {}});
  Both("a gradient of another shape",
       {"ApplyAdam", {F({2, 3}), F({2, 3}), F({2, 3}), s, s, s, s, s, s, F({3, 2})}, {}});
  AddCase("a second moment of another shape",
          {"ApplyAdam", {F({2, 3}), F({2, 3}), F({3, 2}), s, s, s, s, s, s, F({2, 3})}, {}},
          kConstruction, kInvalid, {"[3,2]"});
  Both("a beta1 that is not a scalar",
       {"ApplyAdam", {F({2, 3}), F({2, 3}), F({2, 3}), s, s, s, F({2}), s, s, F({2, 3})}, {}});
  AddRecipe({"_MatMulApplyGradientDescent", {F({3, 4}), F({}, {0.1f}), F({3, 2}), F({2, 4})}, {}});
  Both("a product of the wrong shape",
       {"_MatMulApplyGradientDescent", {F({3, 4}), F({}, {0.1f}), F({3, 2}), F({2, 5})}, {}});
  Both("inner dimensions that differ",
       {"_MatMulApplyGradientDescent", {F({3, 4}), F({}, {0.1f}), F({3, 2}), F({3, 4})}, {}});
}

AttrMap FusedOps(std::vector<std::string> fused_ops) {
  return {{"fused_ops", std::move(fused_ops)}};
}

void FusedMatMulCases() {
  const AttrMap relu = FusedOps({"BiasAdd", "Relu"});
  // The remapper's fused layers: the base op's checks, then the bias's and activation's.
  AddRecipe({"_FusedMatMul", {F({2, 3}), F({3, 4}), F({4})}, relu});
  Both("a bias of the wrong length", {"_FusedMatMul", {F({2, 3}), F({3, 4}), F({3})}, relu},
       {"[3]", "[2,4]"});
  Both("a bias of rank 2", {"_FusedMatMul", {F({2, 3}), F({3, 4}), F({1, 4})}, relu}, {"[1,4]"});
  Both("inner dimensions that differ", {"_FusedMatMul", {F({2, 3}), F({4, 4}), F({4})}, relu},
       {"[2,3]", "[4,4]"});
  // TensorFlow's fused_ops lists that neither its kernels nor rill's take.
  AddCase("fused_ops [BiasAdd, Gelu]",
          {"_FusedMatMul", {F({2, 3}), F({3, 4}), F({4})}, FusedOps({"BiasAdd", "Gelu"})},
          kConstruction, kInvalid, {"unsupported fusion", "Gelu"});
  AddCase("fused_ops [Relu] (no bias)",
          {"_FusedMatMul", {F({2, 3}), F({3, 4}), F({4})}, FusedOps({"Relu"})}, kConstruction,
          kInvalid, {"unsupported fusion"});
  AddCase("fused_ops empty", {"_FusedMatMul", {F({2, 3}), F({3, 4}), F({4})}, FusedOps({})},
          kConstruction, kInvalid, {"unsupported fusion"});
  AddCase("fused_ops [BiasAdd, Relu, Relu]",
          {"_FusedMatMul", {F({2, 3}), F({3, 4}), F({4})}, FusedOps({"BiasAdd", "Relu", "Relu"})},
          kConstruction, kInvalid, {"unsupported fusion"});
  AddCase("two args for a bias",
          {"_FusedMatMul", {F({2, 3}), F({3, 4}), F({4}), F({4})}, FusedOps({"BiasAdd", "Elu"})},
          kConstruction, kInvalid, {"num_args is 2"});
  Both("a LeakyRelu bias of the wrong length",
       {"_FusedMatMul", {F({2, 3}), F({3, 4}), F({5})}, FusedOps({"BiasAdd", "LeakyRelu"})},
       {"[5]", "[2,4]"});
}

void DepthwiseCases() {
  const AttrMap conv = Conv();
  AddRecipe({"DepthwiseConv2dNative", {F({1, 4, 4, 2}), F({3, 3, 2, 3})}, conv});
  AttrMap dilated = conv;
  dilated["dilations"] = Ints{1, 2, 2, 1};
  AddCase("dilations other than 1",
          {"DepthwiseConv2dNative", {F({1, 4, 4, 2}), F({3, 3, 2, 3})}, dilated}, kConstruction,
          kInvalid, {"dilations of 1 only"});
  Both("input channels that differ from the depthwise filter's",
       {"DepthwiseConv2dNative", {F({1, 4, 4, 3}), F({3, 3, 2, 3})}, conv},
       {"3 channels", "[3,3,2,3]"});
  Both("a rank-3 depthwise filter",
       {"DepthwiseConv2dNative", {F({1, 4, 4, 2}), F({3, 3, 2})}, conv}, {"[3,3,2]"});
  AddRecipe({"DepthwiseConv2dNativeBackpropInput",
             {I({4}, {1, 4, 4, 2}), F({3, 3, 2, 3}), F({1, 4, 4, 6})},
             conv});
  InKernel("out_backprop with channels other than c * m",
           {"DepthwiseConv2dNativeBackpropInput",
            {I({4}, {1, 4, 4, 2}), F({3, 3, 2, 3}), F({1, 4, 4, 5})},
            conv});
  Both("a negative depthwise input size",
       {"DepthwiseConv2dNativeBackpropInput",
        {I({4}, {1, -4, 4, 2}), F({3, 3, 2, 3}), F({1, 4, 4, 6})},
        conv});
  AddRecipe({"DepthwiseConv2dNativeBackpropFilter",
             {F({1, 4, 4, 2}), I({4}, {3, 3, 2, 3}), F({1, 4, 4, 6})},
             conv});
  InKernel("depthwise filter_sizes whose channels differ from the input's",
           {"DepthwiseConv2dNativeBackpropFilter",
            {F({1, 4, 4, 2}), I({4}, {3, 3, 5, 3}), F({1, 4, 4, 15})},
            conv});
  InKernel("depthwise filter_sizes of 2^30 filters per channel (checked before allocating)",
           {"DepthwiseConv2dNativeBackpropFilter",
            {F({1, 4, 4, 2}), I({4}, {1, 1, 2, 1 << 30}), F({1, 4, 4, 6})},
            conv},
           {"out_backprop"});
}

void FusedConvCases() {
  const AttrMap conv = Conv();
  AttrMap fused_conv = conv;
  fused_conv["fused_ops"] = std::vector<std::string>{"BiasAdd", "Tanh"};
  AddRecipe({"_FusedConv2D", {F({1, 4, 4, 2}), F({3, 3, 2, 5}), F({5})}, fused_conv});
  Both("a bias of the wrong length",
       {"_FusedConv2D", {F({1, 4, 4, 2}), F({3, 3, 2, 5}), F({2})}, fused_conv},
       {"[2]", "[1,4,4,5]"});
  Both("input channels the filter does not take",
       {"_FusedConv2D", {F({1, 4, 4, 3}), F({3, 3, 2, 5}), F({5})}, fused_conv},
       {"3 channels", "[3,3,2,5]"});
  Both("a scalar bias", {"_FusedConv2D", {F({1, 4, 4, 2}), F({3, 3, 2, 5}), F({})}, fused_conv});
  // TensorFlow's batch norm fusion: four vectors, a finite epsilon.
  AttrMap bn = conv;
  bn["fused_ops"] = std::vector<std::string>{"FusedBatchNorm", "Relu6"};
  const std::vector<Tensor> bn_in = {F({1, 4, 4, 2}), F({3, 3, 2, 5}), F({5}),
                                     F({5}),          F({5}),          F({5})};
  std::vector<Tensor> short_mean = bn_in;
  short_mean[4] = F({4});
  Both("a batch norm mean of 4 channels", {"_FusedConv2D", short_mean, bn}, {"[4]", "[1,4,4,5]"});
  AttrMap bn_eps = bn;
  bn_eps["epsilon"] = -1.0f;
  AddCase("a batch norm epsilon of -1", {"_FusedConv2D", bn_in, bn_eps}, kConstruction, kInvalid,
          {"epsilon"});
  AddCase("a batch norm with a bias's one argument",
          {"_FusedConv2D", {F({1, 4, 4, 2}), F({3, 3, 2, 5}), F({5})}, bn}, kConstruction, kInvalid,
          {"take 4 arguments", "num_args is 1"});
  AttrMap bn_last = conv;
  bn_last["fused_ops"] = std::vector<std::string>{"BiasAdd", "FusedBatchNorm"};
  AddCase("FusedBatchNorm after BiasAdd", {"_FusedConv2D", bn_in, bn_last}, kConstruction, kInvalid,
          {"unsupported fusion"});
  // A convolution and its epilogue program (register 0: the convolution's output).
  for (const char* op : {"_FusedConv2DElementwise", "_FusedDepthwiseConv2dNativeElementwise"}) {
    const bool depthwise = std::string(op) != "_FusedConv2DElementwise";
    const int64_t oc = depthwise ? 6 : 5;
    const Tensor filter = depthwise ? F({3, 3, 2, 3}) : F({3, 3, 2, 5});
    AttrMap epilogue = conv;
    epilogue["program"] = Ints{0, 0, 1, 6, 2, -1};  // relu(conv + operand)
    AddRecipe({op, {F({1, 4, 4, 2}), filter, F({oc})}, epilogue});
    Both("an epilogue operand that grows the batch",
         {op, {F({1, 4, 4, 2}), filter, F({2, 1, 1, oc})}, epilogue},
         {"[2,1,1," + std::to_string(oc) + "]"});
    Both("an epilogue operand that does not broadcast",
         {op, {F({1, 4, 4, 2}), filter, F({4})}, epilogue}, {"[4]"});
    Both("input channels the filter does not take",
         {op, {F({1, 4, 4, 3}), filter, F({oc})}, epilogue}, {"3 channels"});
    AttrMap unmade = epilogue;
    unmade["program"] = Ints{0, 0, 3};
    AddCase("an epilogue step reading a register not yet made",
            {op, {F({1, 4, 4, 2}), filter, F({oc})}, unmade}, kConstruction, kInvalid,
            {"registers 0 to 1"});
  }
}

void GraphOpCases() {
  // The graph's own ops.
  AddRecipe({"Const", {}, {{"value", F({2})}, {"dtype", DT_FLOAT}}});
  AddCase("a dtype that disagrees with the value",
          {"Const", {}, {{"value", F({2})}, {"dtype", DT_INT32}}}, kConstruction, kInvalid,
          {"int32"});
  AddRecipe({"NoOp", {}, {}});
  AddRecipe({"Variable", {}, {{"shape", PartialTensorShape({2})}, {"dtype", DT_FLOAT}}, false});
  AddCase("a variable read before it is initialized",
          {"Variable", {}, {{"shape", PartialTensorShape({2})}, {"dtype", DT_FLOAT}}}, kRun,
          absl::StatusCode::kFailedPrecondition, {"uninitialized"});
  AddCase("a negative dim",
          {"Variable", {}, {{"shape", PartialTensorShape({-2})}, {"dtype", DT_FLOAT}}},
          kConstruction, kInvalid);
  AddRecipe({"Placeholder", {}, {{"dtype", DT_FLOAT}}, false});
  // Refused when the run is planned, before any device is involved.
  AddCase("a placeholder run without a feed", {"Placeholder", {}, {{"dtype", DT_FLOAT}}}, kRun,
          kInvalid, {"must feed", "float"}, /*names_device=*/false);
  AddCase("an invalid shape",
          {"Placeholder", {}, {{"dtype", DT_FLOAT}, {"shape", PartialTensorShape({-5})}}},
          kConstruction, kInvalid);
  const AttrMap copy{{"T", DT_FLOAT},
                     {"shape", PartialTensorShape({2})},
                     {"src_device", std::string("/job:localhost/replica:0/task:0/device:CPU:0")},
                     {"dst_device", std::string("/job:localhost/replica:0/task:0/device:CPU:0")}};
  AddRecipe({"_Copy", {}, copy, false});
  AddCase("a _Copy added by hand and run", {"_Copy", {}, copy}, kRun, absl::StatusCode::kNotFound,
          {"no registered kernel"}, /*names_device=*/false);
}

const bool kRegistered = [] {
  ConvCases();
  PoolCases();
  BiasCases();
  FusedElementwiseCases();
  LossCases();
  AccuracyCases();
  RandomCases();
  StateCases();
  OptimizerCases();
  FusedMatMulCases();
  DepthwiseCases();
  FusedConvCases();
  GraphOpCases();
  return true;
}();

}  // namespace bad_input_cases_nn
}  // namespace
}  // namespace rill::testing
