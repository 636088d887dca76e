// Op cases (support/op_tester.h) of the math and loss ops, each run on every device
// against float64: elementwise with broadcasting, unary ops, reductions (long rows take the
// GPU's chunked path), MatMul and _FusedMatMul, the losses and the fused layer ends.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace op_cases_math {

using Shapes = std::pair<TensorShape, TensorShape>;
using B = std::function<Output(const Scope&, Output, Output)>;
using U = std::function<Output(const Scope&, Output)>;

std::vector<OpCase> Elementwise() {
  std::vector<std::pair<std::string, B>> binary = {
      {"Add", [](auto s, auto x, auto y) { return ops::Add(s, x, y); }},
      {"AddV2", [](auto s, auto x, auto y) { return ops::AddV2(s, x, y); }},
      {"Sub", [](auto s, auto x, auto y) { return ops::Sub(s, x, y); }},
      {"Mul", [](auto s, auto x, auto y) { return ops::Mul(s, x, y); }},
      {"Div", [](auto s, auto x, auto y) { return ops::Div(s, x, y); }},
      {"RealDiv", [](auto s, auto x, auto y) { return ops::RealDiv(s, x, y); }},
      {"SquaredDifference", [](auto s, auto x, auto y) { return ops::SquaredDifference(s, x, y); }},
      {"Pow", [](auto s, auto x, auto y) { return ops::Pow(s, x, y); }},
      {"FloorDiv", [](auto s, auto x, auto y) { return ops::FloorDiv(s, x, y); }},
      {"FloorMod", [](auto s, auto x, auto y) { return ops::FloorMod(s, x, y); }},
      {"TruncateDiv", [](auto s, auto x, auto y) { return ops::TruncateDiv(s, x, y); }},
      {"TruncateMod", [](auto s, auto x, auto y) { return ops::TruncateMod(s, x, y); }},
      {"Mod", [](auto s, auto x, auto y) { return ops::Mod(s, x, y); }},
      {"Atan2", [](auto s, auto x, auto y) { return ops::Atan2(s, x, y); }},
      {"DivNoNan", [](auto s, auto x, auto y) { return ops::DivNoNan(s, x, y); }},
      {"MulNoNan", [](auto s, auto x, auto y) { return ops::MulNoNan(s, x, y); }},
      {"Xlogy", [](auto s, auto x, auto y) { return ops::Xlogy(s, x, ops::Abs(s, y)); }},
      {"Xlog1py", [](auto s, auto x, auto y) { return ops::Xlog1py(s, x, ops::Abs(s, y)); }},
      {"Xdivy", [](auto s, auto x, auto y) { return ops::Xdivy(s, x, y); }},
      {"Maximum", [](auto s, auto x, auto y) { return ops::Maximum(s, x, y); }},
      {"Minimum", [](auto s, auto x, auto y) { return ops::Minimum(s, x, y); }},
      {"Equal", [](auto s, auto x, auto y) { return ops::Equal(s, x, y); }},
      {"Less", [](auto s, auto x, auto y) { return ops::Less(s, x, y); }},
      {"Greater", [](auto s, auto x, auto y) { return ops::Greater(s, x, y); }},
      {"NotEqual", [](auto s, auto x, auto y) { return ops::NotEqual(s, x, y); }},
      {"LessEqual", [](auto s, auto x, auto y) { return ops::LessEqual(s, x, y); }},
      {"GreaterEqual", [](auto s, auto x, auto y) { return ops::GreaterEqual(s, x, y); }}};
  // The activations' gradients: operands of one shape.
  std::vector<std::pair<std::string, B>> same_shape = {
      {"ReluGrad", [](auto s, auto g, auto x) { return ops::ReluGrad(s, g, x); }},
      {"SigmoidGrad", [](auto s, auto y, auto g) { return ops::SigmoidGrad(s, y, g); }},
      {"TanhGrad", [](auto s, auto y, auto g) { return ops::TanhGrad(s, y, g); }},
      // Features over [-7, 7]: both sides of 0 and of 6.
      {"Relu6Grad",
       [](auto s, auto g, auto x) {
         return ops::Relu6Grad(s, g, ops::AddN(s, {x, x, x, x, x, x, x}));
       }},
      {"EluGrad", [](auto s, auto g, auto y) { return ops::EluGrad(s, g, y); }},
      {"SeluGrad", [](auto s, auto g, auto y) { return ops::SeluGrad(s, g, y); }},
      {"LeakyReluGrad", [](auto s, auto g, auto x) {
         return ops::LeakyReluGrad(s, g, x, ops::LeakyReluGrad::Alpha(0.3f));
       }}};
  std::vector<OpCase> c;
  for (auto& [name, fn] : same_shape) {
    B f = fn;
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      c.push_back({name + " " + DataTypeString(dt),
                   [f](const Scope& s, const auto& in) { return f(s, in[0], in[1]); },
                   {RandomTensor(dt, {64, 33}, 0.5, 2, 8), RandomTensor(dt, {64, 33}, -1, 1, 9)}});
    }
  }
  for (auto& [name, fn] : binary) {
    B f = fn;  // clang 14 cannot capture a structured binding
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      for (const Shapes& sh :
           {Shapes{{300, 7}, {7}}, Shapes{{5, 1, 3}, {4, 1}}, Shapes{TensorShape({}), {9}}}) {
        c.push_back(
            {absl::StrCat(name, " ", DataTypeString(dt), " ", sh.first.DebugString(),
                          sh.second.DebugString()),
             [f](const Scope& s, const auto& in) { return f(s, in[0], in[1]); },
             {RandomTensor(dt, sh.first, 0.5, 2, 1), RandomTensor(dt, sh.second, 0.5, 2, 2)}});
      }
    }
  }
  // ClipByValue with scalar bounds and with bounds of t's shape (per dtype: GPU kernels of
  // every number type but int32, a host-memory type).
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT64, DT_UINT8}) {
    const Tensor t = RandomTensor(dt, {50, 21}, 0, 9, 30);
    const Tensor lo = RandomTensor(dt, {50, 21}, 0, 4, 31), hi = RandomTensor(dt, {}, 5, 8, 32);
    auto clip = [](auto s, const auto& in) { return ops::ClipByValue(s, in[0], in[1], in[2]); };
    c.push_back({"ClipByValue " + DataTypeString(dt), clip, {t, lo, hi}, 0, false});
  }
  // The logical ops on bool operands, exact, with broadcasting.
  const Tensor p = RandomTensor(DT_BOOL, {40, 33}, 0, 1, 10),
               q = RandomTensor(DT_BOOL, {33}, 0, 1, 11);
  c.push_back({"LogicalAnd",
               [](auto s, const auto& in) { return ops::LogicalAnd(s, in[0], in[1]); },
               {p, q},
               0,
               false});
  c.push_back({"LogicalOr",
               [](auto s, const auto& in) { return ops::LogicalOr(s, in[0], in[1]); },
               {q, p},
               0,
               false});
  c.push_back({"LogicalNot",
               [](auto s, const auto& in) { return ops::LogicalNot(s, in[0]); },
               {p},
               0,
               false});
  return c;
}

// |x| + 1/4, in x's dtype: away from the poles of lgamma and digamma at 0, -1, -2, ...
Output AwayFromPoles(const Scope& s, const Output& x) {
  return ops::Add(s, ops::Abs(s, x), ops::Cast(s, ops::Const(s, 0.25), x.type()));
}

std::vector<OpCase> Unary() {
  std::vector<std::pair<std::string, U>> unary = {
      {"Neg", [](auto s, auto x) { return ops::Neg(s, x); }},
      {"Abs", [](auto s, auto x) { return ops::Abs(s, x); }},
      {"Square", [](auto s, auto x) { return ops::Square(s, x); }},
      {"Sign", [](auto s, auto x) { return ops::Sign(s, x); }},
      {"Sqrt", [](auto s, auto x) { return ops::Sqrt(s, ops::Abs(s, x)); }},
      {"Exp", [](auto s, auto x) { return ops::Exp(s, x); }},
      {"Log", [](auto s, auto x) { return ops::Log(s, ops::Abs(s, x)); }},
      {"Relu", [](auto s, auto x) { return ops::Relu(s, x); }},
      {"Sigmoid", [](auto s, auto x) { return ops::Sigmoid(s, x); }},
      {"Tanh", [](auto s, auto x) { return ops::Tanh(s, x); }},
      {"Rsqrt",
       [](auto s, auto x) {
         return ops::Rsqrt(s, ops::Add(s, ops::Abs(s, x), ops::OnesLike(s, x)));
       }},
      {"Reciprocal",
       [](auto s, auto x) {
         return ops::Reciprocal(s, ops::Add(s, ops::Abs(s, x), ops::OnesLike(s, x)));
       }},
      {"Floor",
       [](auto s, auto x) {
         return ops::Floor(s, ops::AddN(s, {x, x, x}));
       }},
      {"Ceil",
       [](auto s, auto x) {
         return ops::Ceil(s, ops::AddN(s, {x, x, x}));
       }},
      {"Round",
       [](auto s, auto x) {
         return ops::Round(s, ops::AddN(s, {x, x, x}));
       }},
      {"Sin",
       [](auto s, auto x) {
         return ops::Sin(s, ops::AddN(s, {x, x, x}));
       }},
      {"Cos",
       [](auto s, auto x) {
         return ops::Cos(s, ops::AddN(s, {x, x, x}));
       }},
      {"Erf", [](auto s, auto x) { return ops::Erf(s, x); }},
      {"Expm1", [](auto s, auto x) { return ops::Expm1(s, x); }},
      {"Log1p", [](auto s, auto x) { return ops::Log1p(s, ops::Abs(s, x)); }},
      {"Sinh", [](auto s, auto x) { return ops::Sinh(s, x); }},
      {"Cosh", [](auto s, auto x) { return ops::Cosh(s, x); }},
      {"Tan", [](auto s, auto x) { return ops::Tan(s, x); }},
      {"Asin", [](auto s, auto x) { return ops::Asin(s, ops::Tanh(s, x)); }},
      {"Acos", [](auto s, auto x) { return ops::Acos(s, ops::Tanh(s, x)); }},
      {"Atan",
       [](auto s, auto x) {
         return ops::Atan(s, ops::AddN(s, {x, x, x}));
       }},
      {"Asinh",
       [](auto s, auto x) {
         return ops::Asinh(s, ops::AddN(s, {x, x, x}));
       }},
      {"Acosh",
       [](auto s, auto x) {
         return ops::Acosh(s, ops::Add(s, ops::Abs(s, x), ops::OnesLike(s, x)));
       }},
      {"Atanh", [](auto s, auto x) { return ops::Atanh(s, ops::Tanh(s, x)); }},
      {"Softplus", [](auto s, auto x) { return ops::Softplus(s, ops::AddN(s, {x, x, x, x})); }},
      {"Softsign", [](auto s, auto x) { return ops::Softsign(s, ops::AddN(s, {x, x, x})); }},
      // Away from the poles at 0, -1, -2, ...: x in (0.25, 3.25].
      {"Lgamma", [](auto s, auto x) { return ops::Lgamma(s, AwayFromPoles(s, x)); }},
      {"Digamma", [](auto s, auto x) { return ops::Digamma(s, AwayFromPoles(s, x)); }},
      {"Polygamma",
       [](auto s,
          auto
              x) { return ops::Polygamma(s, ops::Floor(s, ops::Abs(s, x)), AwayFromPoles(s, x)); }},
      {"Relu6", [](auto s, auto x) { return ops::Relu6(s, ops::AddN(s, {x, x, x})); }},
      {"Elu", [](auto s, auto x) { return ops::Elu(s, x); }},
      {"Selu", [](auto s, auto x) { return ops::Selu(s, x); }},
      {"LeakyRelu",
       [](auto s, auto x) { return ops::LeakyRelu(s, x, ops::LeakyRelu::Alpha(0.1f)); }},
      {"Softmax", [](auto s, auto x) { return ops::Softmax(s, x); }},
      {"LogSoftmax", [](auto s, auto x) { return ops::LogSoftmax(s, x); }},
      {"AddN", [](auto s, auto x) { return ops::AddN(s, {x, x, x}); }},
      {"ZerosLike",
       [](auto s, auto x) { return ops::Add(s, ops::ZerosLike(s, x), ops::OnesLike(s, x)); }},
      {"Reshape", [](auto s, auto x) { return ops::Reshape(s, ops::ExpandDims(s, x, 0), {-1}); }},
      {"Squeeze", [](auto s, auto x) { return ops::Squeeze(s, ops::ExpandDims(s, x, 1)); }},
      {"StopGradient", [](auto s, auto x) { return ops::StopGradient(s, x); }},
      {"GuaranteeConst", [](auto s, auto x) { return ops::GuaranteeConst(s, x); }},
      {"Identity", [](auto s, auto x) { return ops::Identity(s, x); }},
      {"EnsureShape",
       [](auto s, auto x) { return ops::EnsureShape(s, x, PartialTensorShape({-1, 33})); }},
      {"Sum", [](auto s, auto x) { return ops::Sum(s, x, {0}); }},
      {"Mean", [](auto s, auto x) { return ops::Mean(s, x, {1}, ops::Mean::KeepDims(true)); }},
      {"Max", [](auto s, auto x) { return ops::Max(s, x, {0, 1}); }},
      {"Min", [](auto s, auto x) { return ops::Min(s, x, {1}); }},
      {"Prod", [](auto s, auto x) { return ops::Prod(s, x, {1}); }},
      {"ArgMax", [](auto s, auto x) { return ops::ArgMax(s, x, 1); }},
      {"ArgMin", [](auto s, auto x) { return ops::ArgMin(s, x, 0); }},
      {"L2Loss", [](auto s, auto x) { return ops::L2Loss(s, x); }},
      {"Fill", [](auto s, auto x) {
         return ops::Fill(s, {2, 3}, ops::Sum(s, x, {0, 1}));
       }}};
  std::vector<OpCase> c;
  for (auto& [name, fn] : unary) {
    U f = fn;
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      c.push_back({name + " " + DataTypeString(dt),
                   [f](const Scope& s, const auto& in) { return f(s, in[0]); },
                   {RandomTensor(dt, {64, 33}, -3, 3, 3)}});
    }
  }
  // Through int32 and back: the values are whole numbers, so precision plays no part.
  c.push_back({"Cast",
               [](const Scope& s, const auto& in) {
                 return ops::Cast(s, ops::Cast(s, in[0], DT_INT32), DT_DOUBLE);
               },
               {RandomTensor(DT_FLOAT, {64, 33}, -3, 3, 3)},
               0,
               false});
  return c;
}

// Few outputs over long rows take the GPU's chunked reduction: whole numbers in float32,
// so every order of summing gives the same exact value.
std::vector<OpCase> LongReductions() {
  Tensor x = RandomTensor(DT_INT32, {3000, 1001}, -3, 3, 21);
  Tensor xf = FromDoubles(DT_FLOAT, x.shape(), ToDoubles(x));
  // Products of +-1: exact in any order.
  std::vector<double> ones(x.NumElements());
  for (size_t i = 0; i < ones.size(); ++i) ones[i] = i % 7 == 3 ? -1 : 1;
  const Tensor signs = FromDoubles(DT_FLOAT, x.shape(), ones);
  std::vector<OpCase> c;
  for (const std::vector<double>& list : std::vector<std::vector<double>>{{0, 1}, {0}, {1}}) {
    const Tensor axes = FromDoubles(DT_INT32, {int64_t(list.size())}, list);
    const std::string what = absl::StrCat(" axes ", absl::StrJoin(list, ","));
    c.push_back({"Sum" + what,
                 [axes](auto s, const auto& in) { return ops::Sum(s, in[0], axes); },
                 {xf},
                 0});
    c.push_back({"Max" + what,
                 [axes](auto s, const auto& in) { return ops::Max(s, in[0], axes); },
                 {xf},
                 0});
    c.push_back({"Min" + what,
                 [axes](auto s, const auto& in) { return ops::Min(s, in[0], axes); },
                 {xf},
                 0});
    c.push_back({"Prod" + what,
                 [axes](auto s, const auto& in) { return ops::Prod(s, in[0], axes); },
                 {signs},
                 0});
  }
  return c;
}

std::vector<OpCase> MatMuls() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    for (bool ta : {false, true}) {
      for (bool tb : {false, true}) {
        const auto attrs = ops::MatMul::TransposeA(ta).TransposeB(tb);
        const std::vector<Tensor> in = {
            RandomTensor(dt, ta ? TensorShape({70, 50}) : TensorShape({50, 70}), -1, 1, 4),
            RandomTensor(dt, tb ? TensorShape({30, 70}) : TensorShape({70, 30}), -1, 1, 5),
            RandomTensor(dt, {30}, -1, 1, 6)};
        const std::string what = absl::StrCat(DataTypeString(dt), " ta=", ta, " tb=", tb);
        c.push_back({"MatMul " + what,
                     [attrs](auto s, const auto& x) { return ops::MatMul(s, x[0], x[1], attrs); },
                     {in[0], in[1]}});
        // The bias-activation ends for every transpose; the others (an epilogue after the
        // product, whatever the transposes) once.
        std::vector<std::string> ends = {"Relu", "Sigmoid", "Tanh"};
        if (!ta && !tb) ends.insert(ends.end(), {"", "Relu6", "Elu", "LeakyRelu"});
        for (const std::string& a : ends) {
          c.push_back({"_FusedMatMul [BiasAdd " + a + "] " + what,
                       [attrs, a](auto s, const auto& x) {
                         return ops::FusedMatMul(s, x[0], x[1], x[2], a, attrs);
                       },
                       in});
        }
      }
    }
  }
  // No inner dimension: the activation of the bias alone.
  c.push_back({"_FusedMatMul k=0",
               [](auto s, const auto& x) { return ops::FusedMatMul(s, x[0], x[1], x[2], "Tanh"); },
               {Tensor(DT_FLOAT, TensorShape({3, 0})), Tensor(DT_FLOAT, TensorShape({0, 2})),
                FromDoubles(DT_FLOAT, {2}, {0.5, -1})}});
  return c;
}

std::vector<OpCase> Losses() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    Tensor logits = RandomTensor(dt, {33, 10}, -4, 4, 31);
    Tensor probs = RandomTensor(dt, {33, 10}, 0, 1, 32);
    Tensor labels = RandomTensor(dt, {33, 10}, 0, 1, 33);
    Tensor ids = RandomTensor(DT_INT32, {33}, 0, 9, 34);
    for (int out : {0, 1}) {
      const std::string what = absl::StrCat(DataTypeString(dt), " output ", out);
      c.push_back({"SoftmaxCrossEntropyWithLogits " + what,
                   [out](auto s, const auto& in) {
                     ops::SoftmaxCrossEntropyWithLogits x(s, in[0], in[1]);
                     return out == 0 ? x.loss : x.backprop;
                   },
                   {logits, labels}});
      c.push_back({"SparseSoftmaxCrossEntropyWithLogits " + what,
                   [out](auto s, const auto& in) {
                     ops::SparseSoftmaxCrossEntropyWithLogits x(s, in[0], in[1]);
                     return out == 0 ? x.loss : x.backprop;
                   },
                   {logits, ids}});
      c.push_back({"_CategoricalCrossentropy " + what,
                   [out](auto s, const auto& in) {
                     ops::CategoricalCrossentropy x(s, in[0], in[1]);
                     return out == 0 ? x.loss : x.backprop;
                   },
                   {probs, labels}});
    }
    c.push_back(
        {"SigmoidCrossEntropyWithLogits " + DataTypeString(dt),
         [](auto s, const auto& in) { return ops::SigmoidCrossEntropyWithLogits(s, in[0], in[1]); },
         {logits, labels}});
  }
  return c;
}

// The fused end of Dense and Conv2D: CIFAR's wide layer (one pass on the GPU), a conv
// layer's many rows (its bias sums in parts), and no rows.
// _FusedElementwise: HardSwish of x * s + b (a bias along the last dim, scalars), then a
// value read twice; and a chain over operands broadcast every other way.
std::vector<OpCase> FusedElementwise() {
  const Tensor x = RandomTensor(DT_FLOAT, {2, 6, 5, 8}, -5, 5, 45);
  const Tensor b = RandomTensor(DT_FLOAT, {8}, -1, 1, 46);
  const Tensor three = FromDoubles(DT_FLOAT, {}, {3}), six = FromDoubles(DT_FLOAT, {}, {6});
  // r2 = x + b; r3 = r2 + 3; r4 = max(r3, x) ... over registers x=0, b=1, 3=2, 6=3.
  const std::vector<int64_t> hard_swish = {0, 0, 1, 0, 4, 2, 6,  5, -1, 5, 6,  3,
                                           2, 4, 7, 3, 8, 3, 10, 9, -1, 4, 10, 9};
  const Tensor rows = RandomTensor(DT_FLOAT, {2, 6, 1, 1}, 1, 2, 47);
  const Tensor cols = RandomTensor(DT_FLOAT, {1, 5, 1}, -1, 1, 48);
  // (x - rows) / rows * cols, squared, negated, abs, copied, relu6 of it minus 1: every
  // other layout and op.
  const std::vector<int64_t> broadcast = {1,  0, 1, 3,  3,  1, 2,  4, 2, 10, 5, -1, 8, 6,
                                          -1, 9, 7, -1, 11, 8, -1, 1, 9, 1,  7, 10, -1};
  return {{"_FusedElementwise hard swish [2,6,5,8]",
           [=](auto s, const auto& in) {
             return ops::FusedElementwise(s, {in[0], in[1], in[2], in[3]}, hard_swish);
           },
           {x, b, three, six}},
          {"_FusedElementwise broadcast rows and columns",
           [=](auto s, const auto& in) {
             return ops::FusedElementwise(s, {in[0], in[1], in[2]}, broadcast);
           },
           {x, rows, cols}}};
}

std::vector<OpCase> BiasActivations() {
  std::vector<OpCase> c;
  for (const TensorShape& shape :
       {TensorShape({32, 3000}), TensorShape({50, 28, 28, 32}), TensorShape({0, 7})}) {
    const int64_t ch = shape.dim_size(shape.dims() - 1);
    Tensor v = RandomTensor(DT_FLOAT, shape, -2, 2, 41),
           b = RandomTensor(DT_FLOAT, {ch}, -1, 1, 42);
    Tensor dy = RandomTensor(DT_FLOAT, shape, -1, 1, 43),
           y = RandomTensor(DT_FLOAT, shape, 0, 1, 44);
    for (const std::string a : {"relu", "sigmoid", "tanh"}) {
      const std::string what = a + " " + shape.DebugString();
      c.push_back({"_BiasActivation " + what,
                   [a](auto s, const auto& in) { return ops::BiasActivation(s, in[0], in[1], a); },
                   {v, b}});
      for (int out : {0, 1}) {
        c.push_back({absl::StrCat("_BiasActivationGrad ", what, " output ", out),
                     [a, out](auto s, const auto& in) {
                       ops::BiasActivationGrad g(s, in[0], in[1], a);
                       return out == 0 ? g.backprops : g.bias_backprop;
                     },
                     {dy, y}});
      }
    }
  }
  return c;
}

// The shape helpers gradients build (int32 results, on the GPU computed on the host).
std::vector<OpCase> ShapeHelpers() {
  const Tensor x = RandomTensor(DT_FLOAT, {4, 1, 6}, -1, 1, 7);
  auto exact = [](std::string name, BuildFn b, std::vector<Tensor> in) {
    return OpCase{std::move(name), std::move(b), std::move(in), 0, false};
  };
  const Tensor perm = FromDoubles(DT_INT32, {3}, {2, 0, 1});
  return {
      exact("Shape", [](auto s, const auto& in) { return ops::Shape(s, in[0]); }, {x}),
      exact("Size", [](auto s, const auto& in) { return ops::Size(s, in[0]); }, {x}),
      exact("InvertPermutation",
            [](auto s, const auto& in) { return ops::InvertPermutation(s, in[0]); }, {perm}),
      exact("ReducedShape",
            [](auto s, const auto& in) {
              return ops::ReducedShape(s, ops::Shape(s, in[0]), ops::Const(s, {0, 2}));
            },
            {x}),
      exact("BroadcastGradientArgs r0",
            [](auto s, const auto& in) {
              return ops::BroadcastGradientArgs(s, ops::Shape(s, in[0]), ops::Const(s, {5, 6})).r0;
            },
            {x}),
      exact("BroadcastGradientArgs r1",
            [](auto s, const auto& in) {
              return ops::BroadcastGradientArgs(s, ops::Shape(s, in[0]), ops::Const(s, {5, 6})).r1;
            },
            {x})};
}

RILL_OP_CASES(math, [] {
  std::vector<OpCase> all;
  for (auto make : {Elementwise, Unary, LongReductions, MatMuls, Losses, BiasActivations,
                    FusedElementwise, ShapeHelpers}) {
    for (OpCase& c : make()) all.push_back(std::move(c));
  }
  return all;
});

}  // namespace op_cases_math
}  // namespace
}  // namespace rill::testing
