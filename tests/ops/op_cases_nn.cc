// Op cases (support/op_tester.h) of the convolutional, data-movement, random, metric, state
// and training ops, each run on every device: conv and pooling on the MNIST CNN's
// geometries and on paddings cuDNN needs help with, strided copies for element sizes 1, 4
// and 8, and updates of variables assigned inside the case.
#include <cmath>

#include "absl/strings/str_cat.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace op_cases_nn {

using ops::IntList;

struct Geometry {
  int64_t n, h, w, c, kh, kw, oc, s;
  std::string pad;
  int64_t oh, ow;
};

// The CNN's 5x5 SAME, a SAME with more padding after than before (cuDNN gets a padded
// copy), a VALID that leaves a row and a column unused, and the MNIST CNN's second layer.
const Geometry kGeometries[] = {{2, 12, 12, 3, 5, 5, 8, 1, "SAME", 12, 12},
                                {3, 8, 8, 4, 3, 3, 5, 2, "SAME", 4, 4},
                                {2, 8, 9, 2, 3, 2, 3, 2, "VALID", 3, 4},
                                {4, 14, 14, 32, 5, 5, 64, 1, "SAME", 14, 14}};

std::vector<OpCase> Convolutions(const Geometry& g) {
  const IntList st = {1, g.s, g.s, 1};
  const std::string pad = g.pad;
  const std::string what = absl::StrCat(g.h, "x", g.w, " k", g.kh, "x", g.kw, " s", g.s, " ", pad);
  const Tensor x = RandomTensor(DT_FLOAT, {g.n, g.h, g.w, g.c}, -1, 1, 11);
  const Tensor f = RandomTensor(DT_FLOAT, {g.kh, g.kw, g.c, g.oc}, -1, 1, 12);
  const Tensor dy = RandomTensor(DT_FLOAT, {g.n, g.oh, g.ow, g.oc}, -1, 1, 13);
  const Tensor bias = RandomTensor(DT_FLOAT, {g.oc}, -1, 1, 17);
  const Tensor in_sizes =
      FromDoubles(DT_INT32, {4}, {double(g.n), double(g.h), double(g.w), double(g.c)});
  const Tensor f_sizes =
      FromDoubles(DT_INT32, {4}, {double(g.kh), double(g.kw), double(g.c), double(g.oc)});
  std::vector<OpCase> c = {
      {absl::StrCat("Conv2D ", what),
       [=](auto s, const auto& in) { return ops::Conv2D(s, in[0], in[1], st, pad); },
       {x, f}},
      {absl::StrCat("Conv2DBackpropInput ", what),
       [=](auto s, const auto& in) {
         return ops::Conv2DBackpropInput(s, ops::Const(s, in_sizes), in[0], in[1], st, pad);
       },
       {f, dy}},
      {absl::StrCat("Conv2DBackpropFilter ", what),
       [=](auto s, const auto& in) {
         return ops::Conv2DBackpropFilter(s, in[0], ops::Const(s, f_sizes), in[1], st, pad);
       },
       {x, dy}}};
  // The depthwise ops on the same windows, two filters per input channel.
  const Tensor df = RandomTensor(DT_FLOAT, {g.kh, g.kw, g.c, 2}, -1, 1, 18);
  const Tensor ddy = RandomTensor(DT_FLOAT, {g.n, g.oh, g.ow, g.c * 2}, -1, 1, 19);
  const Tensor df_sizes =
      FromDoubles(DT_INT32, {4}, {double(g.kh), double(g.kw), double(g.c), 2.0});
  c.push_back(
      {absl::StrCat("DepthwiseConv2dNative ", what),
       [=](auto s, const auto& in) { return ops::DepthwiseConv2dNative(s, in[0], in[1], st, pad); },
       {x, df}});
  c.push_back({absl::StrCat("DepthwiseConv2dNativeBackpropInput ", what),
               [=](auto s, const auto& in) {
                 return ops::DepthwiseConv2dNativeBackpropInput(s, ops::Const(s, in_sizes), in[0],
                                                                in[1], st, pad);
               },
               {df, ddy}});
  c.push_back({absl::StrCat("DepthwiseConv2dNativeBackpropFilter ", what),
               [=](auto s, const auto& in) {
                 return ops::DepthwiseConv2dNativeBackpropFilter(s, in[0], ops::Const(s, df_sizes),
                                                                 in[1], st, pad);
               },
               {x, ddy}});
  // The ends oneDNN fuses on every geometry; the others (an epilogue after the product,
  // whatever its shape) on the small ones.
  std::vector<std::string> ends = {"Relu", "Sigmoid", "Tanh"};
  if (g.oc <= 8) ends.insert(ends.end(), {"", "Relu6", "Elu", "LeakyRelu"});
  for (const std::string& a : ends) {
    c.push_back({absl::StrCat("_FusedConv2D [BiasAdd ", a, "] ", what),
                 [=](auto s, const auto& in) {
                   return ops::FusedConv2D(s, in[0], in[1], in[2], st, pad, a);
                 },
                 {x, f, bias}});
  }
  return c;
}

std::vector<OpCase> PoolsAndBias(const Geometry& g, DataType dt) {
  const IntList st = {1, g.s, g.s, 1}, k = {1, g.kh, g.kw, 1};
  const std::string pad = g.pad;
  const std::string what = absl::StrCat(g.h, "x", g.w, " k", g.kh, "x", g.kw, " s", g.s, " ", pad,
                                        " ", DataTypeString(dt));
  const Tensor xp = RandomTensor(dt, {g.n, g.h, g.w, g.c}, -1, 1, 14);
  const Tensor dp = RandomTensor(dt, {g.n, g.oh, g.ow, g.c}, -1, 1, 15);
  const Tensor sizes =
      FromDoubles(DT_INT32, {4}, {double(g.n), double(g.h), double(g.w), double(g.c)});
  return {{absl::StrCat("MaxPool ", what),
           [=](auto s, const auto& in) { return ops::MaxPool(s, in[0], k, st, pad); },
           {xp}},
          {absl::StrCat("AvgPool ", what),
           [=](auto s, const auto& in) { return ops::AvgPool(s, in[0], k, st, pad); },
           {xp}},
          {absl::StrCat("MaxPoolGrad ", what),
           [=](auto s, const auto& in) {
             return ops::MaxPoolGrad(s, in[0], ops::MaxPool(s, in[0], k, st, pad), in[1], k, st,
                                     pad);
           },
           {xp, dp}},
          {absl::StrCat("AvgPoolGrad ", what),
           [=](auto s, const auto& in) {
             return ops::AvgPoolGrad(s, ops::Const(s, sizes), in[0], k, st, pad);
           },
           {dp}},
          {absl::StrCat("BiasAdd ", what),
           [](auto s, const auto& in) { return ops::BiasAdd(s, in[0], in[1]); },
           {xp, RandomTensor(dt, {g.c}, -1, 1, 16)}},
          {absl::StrCat("BiasAddGrad ", what),
           [](auto s, const auto& in) { return ops::BiasAddGrad(s, in[0]); },
           {xp}}};
}

// Strided copies move bytes: every device must give the CPU's exact values.
std::vector<OpCase> DataMovement() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
    const std::string t = absl::StrCat(" ", DataTypeString(dt));
    const Tensor x = RandomTensor(dt, {4, 5, 6}, 0, 9, 50);
    auto exact = [&](std::string name, BuildFn build) {
      c.push_back({name + t, std::move(build), {x}, 0, false});
    };
    exact("Transpose", [](auto s, const auto& in) { return ops::Transpose(s, in[0], {2, 0, 1}); });
    exact("Slice", [](auto s, const auto& in) {
      return ops::Slice(s, in[0], {1, 0, 2}, {2, -1, 3});
    });
    exact("Pad", [](auto s, const auto& in) {
      return ops::Pad(s, in[0], ops::Const(s, {{1, 0}, {0, 2}, {3, 1}}));
    });
    exact("BroadcastTo", [](auto s, const auto& in) {
      return ops::BroadcastTo(s, ops::Slice(s, in[0], {0, 0, 0}, {4, 1, 6}), {3, 4, 7, 6});
    });
    exact("ConcatV2", [](auto s, const auto& in) { return ops::Concat(s, {in[0], in[0]}, 1); });
    exact("NoOp", [](auto s, const auto& in) {
      const std::vector<Operation> first = {ops::NoOp(s).operation};
      return ops::Identity(s.WithControlDependencies(first), in[0]);
    });
  }
  for (DataType it : {DT_UINT8, DT_INT32, DT_INT64}) {
    const Tensor idx = RandomTensor(it, {6, 7}, 0, 5, 51);  // some of 0..5 fall outside depth 5
    for (int64_t axis : {-1, 0, 1}) {
      c.push_back({absl::StrCat("OneHot ", DataTypeString(it), " axis ", axis),
                   [axis](auto s, const auto& in) {
                     return ops::OneHot(s, in[0], 5, 2.5f, -1.0f, ops::OneHot::Axis(axis));
                   },
                   {idx},
                   0,
                   false});
    }
  }
  return c;
}

// Counter-based random numbers: the GPU draws the CPU's.
std::vector<OpCase> Random() {
  auto a = ops::RandomAttrs().Seed(5).Seed2(9);
  return {{"RandomUniform",
           [a](auto s, const auto&) { return ops::RandomUniform(s, {1000}, DT_FLOAT, a); },
           {},
           1e-6,
           false},
          {"RandomStandardNormal",
           [a](auto s, const auto&) { return ops::RandomNormal(s, {1000}, DT_FLOAT, a); },
           {},
           1e-5,
           false},
          {"TruncatedNormal",
           [a](auto s, const auto&) { return ops::TruncatedNormal(s, {1000}, DT_DOUBLE, a); },
           {},
           1e-12,
           false},
          {"Dropout",
           [](auto s, const auto& in) {
             return ops::Dropout(s, in[0], 0.3f, ops::Dropout::Seed(3)).output;
           },
           {RandomTensor(DT_FLOAT, {40, 25}, -1, 1, 52)},
           1e-6,
           false},
          {"RandomUniformInt",
           [a](auto s, const auto&) {
             return ops::RandomUniformInt(s, {1000}, ops::Const(s, int64_t{-50}),
                                          ops::Const(s, int64_t{1000}), a);
           },
           {},
           0,
           false},
          {"Multinomial",  // some logits -inf: never drawn on either device
           [](auto s, const auto& in) {
             return ops::Multinomial(s, in[0], ops::Const(s, 70), ops::Multinomial::Seed(6));
           },
           {FromDoubles(DT_FLOAT, {3, 4},
                        {0.5, -1, 2, -INFINITY, 3, 3, -2, 0.1, -INFINITY, 1, -INFINITY, -5})},
           0,
           false}};
}

std::vector<OpCase> Metrics() {
  const Tensor probs = RandomTensor(DT_FLOAT, {33, 10}, 0, 1, 53);
  const Tensor onehot = RandomTensor(DT_FLOAT, {33, 10}, 0, 1, 54);
  return {{"_Accuracy categorical",
           [](auto s, const auto& in) { return ops::Accuracy(s, in[0], in[1], "categorical"); },
           {probs, onehot},
           0,
           false},
          {"_MeanAllGrad",
           [](auto s, const auto& in) {
             return ops::MeanAllGrad(s, in[0], ops::Const(s, {int32_t(4), int32_t(5)}));
           },
           {FromDoubles(DT_FLOAT, {}, {3.0})}}};
}

// Variables assigned in the case (each run has a new Session), then updated: the case's
// value is the updated variable.
Scope AfterAssigning(const Scope& s, const std::vector<std::pair<Output, Output>>& vars) {
  std::vector<Operation> inits;
  for (const auto& [var, value] : vars) {
    inits.push_back(ops::Assign(s, var, value, ops::Assign::ValidateShape(false)).operation);
  }
  return s.WithControlDependencies(inits);
}
Output Var(const Scope& s, const Output& like) {
  return ops::Variable(s, PartialTensorShape(), like.type());
}

std::vector<OpCase> StateAndTraining() {
  const Tensor v0 = RandomTensor(DT_FLOAT, {6, 4}, -1, 1, 60),
               d = RandomTensor(DT_FLOAT, {6, 4}, -1, 1, 61);
  const Tensor half = FromDoubles(DT_FLOAT, {}, {0.5}), lr = FromDoubles(DT_FLOAT, {}, {0.1});
  std::vector<OpCase> c = {
      {"Assign", [](auto s, const auto& in) { return ops::Assign(s, Var(s, in[0]), in[0]); }, {v0}},
      {"IsVariableInitialized",
       [](auto s, const auto& in) {
         Output set = Var(s, in[0]), unset = Var(s, in[0]);
         Scope after = AfterAssigning(s, {{set, in[0]}});
         return ops::Stack(
             s, {ops::IsVariableInitialized(after, set), ops::IsVariableInitialized(after, unset)});
       },
       {v0},
       0,
       false},
      {"AssignAdd",
       [](auto s, const auto& in) {
         Output v = Var(s, in[0]);
         return ops::AssignAdd(AfterAssigning(s, {{v, in[0]}}), v, in[1]);
       },
       {v0, d}},
      {"AssignSub",
       [](auto s, const auto& in) {
         Output v = Var(s, in[0]);
         return ops::AssignSub(AfterAssigning(s, {{v, in[0]}}), v, in[1]);
       },
       {v0, d}},
      {"ApplyGradientDescent",
       [](auto s, const auto& in) {
         Output v = Var(s, in[0]);
         return ops::ApplyGradientDescent(AfterAssigning(s, {{v, in[0]}}), v, in[2], in[1]);
       },
       {v0, d, lr}},
      {"ApplyMomentum",
       [](auto s, const auto& in) {
         Output v = Var(s, in[0]), acc = Var(s, in[0]);
         return ops::ApplyMomentum(AfterAssigning(s, {{v, in[0]}, {acc, in[1]}}), v, acc, in[2],
                                   in[1], in[3]);
       },
       {v0, d, lr, half}},
      {"ApplyAdam",
       [](auto s, const auto& in) {
         Output v = Var(s, in[0]), m = Var(s, in[0]), u = Var(s, in[0]);
         Scope after = AfterAssigning(s, {{v, in[0]}, {m, in[1]}, {u, ops::Square(s, in[1])}});
         return ops::ApplyAdam(after, v, m, u, in[3], in[3], in[2], in[3], in[3], in[2], in[1]);
       },
       {v0, d, lr, half}},
      {"_MatMulApplyGradientDescent",
       [](auto s, const auto& in) {
         Output v = Var(s, in[0]);
         Operation op = ops::internal::NodeBuilder(AfterAssigning(s, {{v, in[0]}}),
                                                   "_MatMulApplyGradientDescent")
                            .Input(v)
                            .Input(in[2])
                            .Input(in[1])
                            .Input(in[3])
                            .Attr("transpose_a", true)
                            .Attr("transpose_b", false)
                            .Finalize();
         return Output(op.node(), 0);
       },
       {v0, RandomTensor(DT_FLOAT, {5, 6}, -1, 1, 62), lr,
        RandomTensor(DT_FLOAT, {5, 4}, -1, 1, 63)}}};
  return c;
}

RILL_OP_CASES(nn, [] {
  std::vector<OpCase> all;
  auto add = [&](std::vector<OpCase> c) {
    for (OpCase& k : c) all.push_back(std::move(k));
  };
  for (const Geometry& g : kGeometries) {
    add(Convolutions(g));
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) add(PoolsAndBias(g, dt));
  }
  add(DataMovement());
  add(Random());
  add(Metrics());
  add(StateAndTraining());
  return all;
});

}  // namespace op_cases_nn
}  // namespace
}  // namespace rill::testing
