// GPU tests: skipped where no GPU is present (CI), run on the lent GPU machine.
// CPU-GPU parity for every op with a GPU kernel, graphs split across devices, variables
// living on the GPU, out-of-memory as a Status, and random ops giving the CPU's numbers.
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "test_util.h"

namespace rill::testing {
namespace {

#define RILL_REQUIRE_GPU() \
  if (!HaveGpu()) GTEST_SKIP() << "no GPU on this machine"

// Runs `build` on fed inputs on the CPU and, with soft placement off, on the GPU.
void ExpectParity(const std::string& what, const BuildFn& build, const std::vector<Tensor>& in,
                  double rtol = 1e-4) {
  SCOPED_TRACE(what);
  Scope root = Scope::NewRootScope();
  std::vector<Output> ph;
  Session::FeedType feeds;
  for (size_t i = 0; i < in.size(); ++i) {
    auto p = ops::Placeholder(root, in[i].dtype());
    ph.push_back(p);
    feeds.emplace(p.output, Input::Initializer(in[i]));
  }
  Output out = build(root.WithDevice("/GPU:0"), ph);
  ASSERT_TRUE(root.ok()) << root.status();
  SessionOptions strict;
  strict.allow_soft_placement = false;
  Session gpu(root, strict), cpu(root, SessionOptions(), CpuOnly());
  std::vector<Tensor> g, c;
  absl::Status sg = gpu.Run(feeds, {out}, &g);
  ASSERT_TRUE(sg.ok()) << sg;
  ASSERT_TRUE(cpu.Run(feeds, {out}, &c).ok());
  EXPECT_EQ(*gpu.AssignedDevice(out.op()), "/job:localhost/replica:0/task:0/device:GPU:0");
  ASSERT_TRUE(g[0].OnHost());
  ExpectTensorNear(g[0], c[0].dtype(), c[0].shape(), ToDoubles(c[0]), rtol);
}

TEST(Gpu, ElementwiseParity) {
  RILL_REQUIRE_GPU();
  using B = std::function<Output(const Scope&, Output, Output)>;
  std::vector<std::pair<std::string, B>> binary = {
      {"Add", [](auto s, auto x, auto y) { return ops::Add(s, x, y); }},
      {"Sub", [](auto s, auto x, auto y) { return ops::Sub(s, x, y); }},
      {"Mul", [](auto s, auto x, auto y) { return ops::Mul(s, x, y); }},
      {"Div", [](auto s, auto x, auto y) { return ops::Div(s, x, y); }},
      {"Pow", [](auto s, auto x, auto y) { return ops::Pow(s, x, y); }},
      {"Maximum", [](auto s, auto x, auto y) { return ops::Maximum(s, x, y); }},
      {"Minimum", [](auto s, auto x, auto y) { return ops::Minimum(s, x, y); }},
      {"Equal", [](auto s, auto x, auto y) { return ops::Equal(s, x, y); }},
      {"Less", [](auto s, auto x, auto y) { return ops::Less(s, x, y); }},
      {"Greater", [](auto s, auto x, auto y) { return ops::Greater(s, x, y); }}};
  for (auto& [name, fn] : binary) {
    auto& f = fn;  // clang 14 cannot capture a structured binding
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      for (auto [sa, sb] : {std::pair{TensorShape({300, 7}), TensorShape({7})},
                            {TensorShape({5, 1, 3}), TensorShape({4, 1})},
                            {TensorShape({}), TensorShape({9})}}) {
        ExpectParity(name + " " + DataTypeString(dt),
                     [&](const Scope& s, const auto& in) { return f(s, in[0], in[1]); },
                     {RandomTensor(dt, sa, 0.5, 2, 1), RandomTensor(dt, sb, 0.5, 2, 2)});
      }
    }
  }
  using U = std::function<Output(const Scope&, Output)>;
  std::vector<std::pair<std::string, U>> unary = {
      {"Neg", [](auto s, auto x) { return ops::Neg(s, x); }},
      {"Abs", [](auto s, auto x) { return ops::Abs(s, x); }},
      {"Square", [](auto s, auto x) { return ops::Square(s, x); }},
      {"Sqrt", [](auto s, auto x) { return ops::Sqrt(s, ops::Abs(s, x)); }},
      {"Exp", [](auto s, auto x) { return ops::Exp(s, x); }},
      {"Log", [](auto s, auto x) { return ops::Log(s, ops::Abs(s, x)); }},
      {"Relu", [](auto s, auto x) { return ops::Relu(s, x); }},
      {"Sigmoid", [](auto s, auto x) { return ops::Sigmoid(s, x); }},
      {"Tanh", [](auto s, auto x) { return ops::Tanh(s, x); }},
      {"Softmax", [](auto s, auto x) { return ops::Softmax(s, x); }},
      {"LogSoftmax", [](auto s, auto x) { return ops::LogSoftmax(s, x); }},
      {"Cast", [](auto s, auto x) { return ops::Cast(s, ops::Cast(s, x, DT_INT32), DT_DOUBLE); }},
      {"AddN",
       [](auto s, auto x) {
         return ops::AddN(s, {x, x, x});
       }},
      {"ZerosLike",
       [](auto s, auto x) { return ops::Add(s, ops::ZerosLike(s, x), ops::OnesLike(s, x)); }},
      {"Reshape", [](auto s, auto x) { return ops::Reshape(s, ops::ExpandDims(s, x, 0), {-1}); }},
      {"Sum", [](auto s, auto x) { return ops::Sum(s, x, {0}); }},
      {"Mean", [](auto s, auto x) { return ops::Mean(s, x, {1}, ops::Mean::KeepDims(true)); }},
      {"Max",
       [](auto s, auto x) {
         return ops::Max(s, x, {0, 1});
       }},
      {"Min", [](auto s, auto x) { return ops::Min(s, x, {1}); }},
      {"ArgMax", [](auto s, auto x) { return ops::ArgMax(s, x, 1); }},
      {"Fill", [](auto s, auto x) {
         return ops::Fill(s, {2, 3}, ops::Sum(s, x, {0, 1}));
       }}};
  for (auto& [name, fn] : unary) {
    auto& f = fn;  // clang 14 cannot capture a structured binding
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      ExpectParity(name + " " + DataTypeString(dt),
                   [&](const Scope& s, const auto& in) { return f(s, in[0]); },
                   {RandomTensor(dt, {64, 33}, -3, 3, 3)});
    }
  }
}

// Few outputs over long rows take the chunked reduction (a tree per chunk, then the
// chunks): integers in float32, so every order of summing gives the same exact value.
TEST(Gpu, LongReductionsParity) {
  RILL_REQUIRE_GPU();
  Tensor x = RandomTensor(DT_INT32, {3000, 1001}, -3, 3, 21);
  Tensor xf(DT_FLOAT, x.shape());
  for (int64_t i = 0; i < x.NumElements(); ++i) xf.base<float>()[i] = float(x.base<int32_t>()[i]);
  for (const std::vector<double>& list : std::vector<std::vector<double>>{{0, 1}, {0}, {1}}) {
    const Tensor axes = FromDoubles(DT_INT32, {int64_t(list.size())}, list);
    const std::string what = absl::StrCat("axes ", absl::StrJoin(list, ","));
    ExpectParity(
        "Sum " + what, [&](const Scope& s, const auto& in) { return ops::Sum(s, in[0], axes); },
        {xf}, 0);
    ExpectParity(
        "Max " + what, [&](const Scope& s, const auto& in) { return ops::Max(s, in[0], axes); },
        {xf}, 0);
    ExpectParity(
        "Min " + what, [&](const Scope& s, const auto& in) { return ops::Min(s, in[0], axes); },
        {xf}, 0);
  }
  Tensor y(DT_FLOAT, TensorShape({50, 28, 28, 32}));  // the MNIST CNN's first bias gradient
  for (int64_t i = 0; i < y.NumElements(); ++i) y.base<float>()[i] = float(i % 7) - 3;
  ExpectParity(
      "BiasAddGrad", [&](const Scope& s, const auto& in) { return ops::BiasAddGrad(s, in[0]); },
      {y}, 0);
}

// The fused losses (both outputs), on the GPU as on the CPU.
TEST(Gpu, LossParity) {
  RILL_REQUIRE_GPU();
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    Tensor logits = RandomTensor(dt, {33, 10}, -4, 4, 31);
    Tensor probs = RandomTensor(dt, {33, 10}, 0, 1, 32);
    Tensor labels = RandomTensor(dt, {33, 10}, 0, 1, 33);
    Tensor ids = RandomTensor(DT_INT32, {33}, 0, 9, 34);
    for (int out : {0, 1}) {
      const std::string what = absl::StrCat(DataTypeString(dt), " output ", out);
      ExpectParity("SoftmaxCrossEntropyWithLogits " + what,
                   [&](const Scope& s, const auto& in) {
                     ops::SoftmaxCrossEntropyWithLogits x(s, in[0], in[1]);
                     return out == 0 ? x.loss : x.backprop;
                   },
                   {logits, labels});
      ExpectParity("SparseSoftmaxCrossEntropyWithLogits " + what,
                   [&](const Scope& s, const auto& in) {
                     ops::SparseSoftmaxCrossEntropyWithLogits x(s, in[0], in[1]);
                     return out == 0 ? x.loss : x.backprop;
                   },
                   {logits, ids});
      ExpectParity("_CategoricalCrossentropy " + what,
                   [&](const Scope& s, const auto& in) {
                     ops::CategoricalCrossentropy x(s, in[0], in[1]);
                     return out == 0 ? x.loss : x.backprop;
                   },
                   {probs, labels});
    }
  }
}

// The fused end of Dense and Conv2D: CIFAR's wide layer (one pass), a conv layer's many
// rows (sums in parts), and no rows.
TEST(Gpu, BiasActivationParity) {
  RILL_REQUIRE_GPU();
  for (const TensorShape& shape :
       {TensorShape({32, 3000}), TensorShape({50, 28, 28, 32}), TensorShape({0, 7})}) {
    const int64_t c = shape.dim_size(shape.dims() - 1);
    Tensor v = RandomTensor(DT_FLOAT, shape, -2, 2, 41), b = RandomTensor(DT_FLOAT, {c}, -1, 1, 42);
    Tensor dy = RandomTensor(DT_FLOAT, shape, -1, 1, 43),
           y = RandomTensor(DT_FLOAT, shape, 0, 1, 44);
    for (const std::string a : {"relu", "sigmoid", "tanh"}) {
      const std::string what = a + " " + shape.DebugString();
      ExpectParity(
          "_BiasActivation " + what,
          [&](const Scope& s, const auto& in) { return ops::BiasActivation(s, in[0], in[1], a); },
          {v, b});
      for (int out : {0, 1}) {
        ExpectParity(absl::StrCat("_BiasActivationGrad ", what, " output ", out),
                     [&](const Scope& s, const auto& in) {
                       ops::BiasActivationGrad g(s, in[0], in[1], a);
                       return out == 0 ? g.backprops : g.bias_backprop;
                     },
                     {dy, y});
      }
    }
  }
}

TEST(Gpu, MatMulParity) {
  RILL_REQUIRE_GPU();
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    for (bool ta : {false, true}) {
      for (bool tb : {false, true}) {
        ExpectParity(
            "MatMul",
            [&](const Scope& s, const auto& in) {
              return ops::MatMul(s, in[0], in[1], ops::MatMul::TransposeA(ta).TransposeB(tb));
            },
            {RandomTensor(dt, ta ? TensorShape({70, 50}) : TensorShape({50, 70}), -1, 1, 4),
             RandomTensor(dt, tb ? TensorShape({30, 70}) : TensorShape({70, 30}), -1, 1, 5)});
      }
    }
  }
}

// Conv2D and its gradients (cuDNN), pooling and bias (rill's CUDA kernels) against the CPU
// on three geometries: the CNN's 5x5 SAME, a SAME with more padding after than before
// (8x8, 3x3, stride 2: cuDNN gets an explicitly padded input) and a VALID that leaves a
// row and a column unused.
TEST(Gpu, ConvPoolAndBiasParity) {
  RILL_REQUIRE_GPU();
  struct G {
    int64_t n, h, w, c, kh, kw, oc, s;
    std::string pad;
    int64_t oh, ow;
  };
  for (const G& g :
       {G{2, 12, 12, 3, 5, 5, 8, 1, "SAME", 12, 12}, G{3, 8, 8, 4, 3, 3, 5, 2, "SAME", 4, 4},
        G{2, 8, 9, 2, 3, 2, 3, 2, "VALID", 3, 4},
        G{4, 14, 14, 32, 5, 5, 64, 1, "SAME", 14, 14}}) {  // the MNIST CNN's second layer
    const ops::IntList st = {1, g.s, g.s, 1};
    const std::string what =
        absl::StrCat(g.h, "x", g.w, " k", g.kh, "x", g.kw, " s", g.s, " ", g.pad);
    Tensor x = RandomTensor(DT_FLOAT, {g.n, g.h, g.w, g.c}, -1, 1, 11);
    Tensor f = RandomTensor(DT_FLOAT, {g.kh, g.kw, g.c, g.oc}, -1, 1, 12);
    Tensor dy = RandomTensor(DT_FLOAT, {g.n, g.oh, g.ow, g.oc}, -1, 1, 13);
    // Both of the kernel's routes: cuDNN on NHWC tensors, and on NCHW copies (the fallback
    // for passes with no usable NHWC algorithm, forced here).
    for (const char* layout : {"", "NCHW"}) {
      SCOPED_TRACE(std::string("RILL_CUDNN_LAYOUT=") + layout);
      setenv("RILL_CUDNN_LAYOUT", layout, 1);
      ExpectParity(
          "Conv2D " + what,
          [&](const Scope& s, const auto& in) { return ops::Conv2D(s, in[0], in[1], st, g.pad); },
          {x, f});
      ExpectParity("Conv2DBackpropInput " + what,
                   [&](const Scope& s, const auto& in) {
                     return ops::Conv2DBackpropInput(
                         s, ops::Const(s, {int32_t(g.n), int32_t(g.h), int32_t(g.w), int32_t(g.c)}),
                         in[0], in[1], st, g.pad);
                   },
                   {f, dy});
      ExpectParity("Conv2DBackpropFilter " + what,
                   [&](const Scope& s, const auto& in) {
                     return ops::Conv2DBackpropFilter(
                         s, in[0],
                         ops::Const(s, {int32_t(g.kh), int32_t(g.kw), int32_t(g.c), int32_t(g.oc)}),
                         in[1], st, g.pad);
                   },
                   {x, dy});
    }
    unsetenv("RILL_CUDNN_LAYOUT");
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      const ops::IntList k = {1, g.kh, g.kw, 1};
      Tensor xp = RandomTensor(dt, {g.n, g.h, g.w, g.c}, -1, 1, 14);
      Tensor dp = RandomTensor(dt, {g.n, g.oh, g.ow, g.c}, -1, 1, 15);
      const std::string tw = what + " " + DataTypeString(dt);
      ExpectParity(
          "MaxPool " + tw,
          [&](const Scope& s, const auto& in) { return ops::MaxPool(s, in[0], k, st, g.pad); },
          {xp});
      ExpectParity(
          "AvgPool " + tw,
          [&](const Scope& s, const auto& in) { return ops::AvgPool(s, in[0], k, st, g.pad); },
          {xp});
      ExpectParity("MaxPoolGrad " + tw,
                   [&](const Scope& s, const auto& in) {
                     return ops::MaxPoolGrad(s, in[0], ops::MaxPool(s, in[0], k, st, g.pad), in[1],
                                             k, st, g.pad);
                   },
                   {xp, dp});
      ExpectParity("AvgPoolGrad " + tw,
                   [&](const Scope& s, const auto& in) {
                     return ops::AvgPoolGrad(
                         s, ops::Const(s, {int32_t(g.n), int32_t(g.h), int32_t(g.w), int32_t(g.c)}),
                         in[0], k, st, g.pad);
                   },
                   {dp});
      ExpectParity("BiasAdd " + tw,
                   [&](const Scope& s, const auto& in) { return ops::BiasAdd(s, in[0], in[1]); },
                   {xp, RandomTensor(dt, {g.c}, -1, 1, 16)});
      ExpectParity("BiasAddGrad " + tw,
                   [&](const Scope& s, const auto& in) { return ops::BiasAddGrad(s, in[0]); },
                   {xp});
    }
  }
}

// Feeds are staged through pinned host memory (reused from run to run) and fetched
// tensors come back in it; the values survive the round trip and the device reports
// its memory.
TEST(Gpu, FeedsAndFetchesGoThroughPinnedHostMemory) {
  RILL_REQUIRE_GPU();
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_FLOAT);
  auto y = ops::Add(root.WithDevice("/GPU:0"), x, 1.f);
  Session session(root);
  absl::StatusOr<DeviceMemoryStats> before = GetDeviceMemoryStats("/GPU:0");
  ASSERT_TRUE(before.ok()) << before.status();
  for (int run = 0; run < 3; ++run) {
    Tensor in = RandomTensor(DT_FLOAT, {1000, 1000}, -1, 1, 30 + run);
    std::vector<Tensor> out;
    ASSERT_TRUE(session.Run({{x, in}}, {y}, &out).ok());
    ASSERT_TRUE(out[0].OnHost());
    for (int64_t i = 0; i < in.NumElements(); i += 997) {
      ASSERT_EQ(out[0].flat<float>()(i), in.flat<float>()(i) + 1.f) << i;
    }
  }
  absl::StatusOr<DeviceMemoryStats> after = GetDeviceMemoryStats("/device:GPU:0");
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_GE(after->pinned_host.num_allocs - before->pinned_host.num_allocs, 6);  // 3 in, 3 out
  EXPECT_GE(after->pinned_host.num_cache_hits - before->pinned_host.num_cache_hits, 4);
  EXPECT_GT(after->device.peak_bytes_in_use, 4'000'000 - 1);
}

// Transpose, Slice, Pad, Concat and BroadcastTo (strided copies) and OneHot against the CPU, for
// element sizes 1, 4 and 8.
TEST(Gpu, DataMovementParity) {
  RILL_REQUIRE_GPU();
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
    const std::string t = DataTypeString(dt);
    Tensor x = RandomTensor(dt, {4, 5, 6}, 0, 9, 50);
    ExpectParity("Transpose " + t,
                 [](const Scope& s, const auto& in) {
                   return ops::Transpose(s, in[0], {2, 0, 1});
                 },
                 {x});
    ExpectParity("Slice " + t,
                 [](const Scope& s, const auto& in) {
                   return ops::Slice(s, in[0], {1, 0, 2}, {2, -1, 3});
                 },
                 {x});
    ExpectParity("Pad " + t,
                 [](const Scope& s, const auto& in) {
                   return ops::Pad(s, in[0], ops::Const(s, {{1, 0}, {0, 2}, {3, 1}}));
                 },
                 {x});
    ExpectParity(
        "BroadcastTo " + t,
        [](const Scope& s, const auto& in) {
          return ops::BroadcastTo(s, ops::Slice(s, in[0], {0, 0, 0}, {4, 1, 6}), {3, 4, 7, 6});
        },
        {x});
  }
}

TEST(Gpu, OneHotParity) {
  RILL_REQUIRE_GPU();
  for (DataType it : {DT_UINT8, DT_INT32, DT_INT64}) {
    Tensor idx = RandomTensor(it, {6, 7}, 0, 5, 51);  // some of 0..5 fall outside depth 5
    for (int64_t axis : {-1, 0, 1}) {
      ExpectParity("OneHot " + DataTypeString(it) + " axis " + std::to_string(axis),
                   [&](const Scope& s, const auto& in) {
                     return ops::OneHot(s, in[0], 5, 2.5f, -1.0f, ops::OneHot::Axis(axis));
                   },
                   {idx});
    }
  }
}

TEST(Gpu, RandomOpsGiveTheCpuNumbers) {
  RILL_REQUIRE_GPU();
  for (int kind = 0; kind < 3; ++kind) {
    ExpectParity(
        "random",
        [&](const Scope& s, const auto&) -> Output {
          auto a = ops::RandomAttrs().Seed(5).Seed2(9);
          if (kind == 0) return ops::RandomUniform(s, {1000}, DT_FLOAT, a);
          if (kind == 1) return ops::RandomNormal(s, {1000}, DT_FLOAT, a);
          return ops::TruncatedNormal(s, {1000}, DT_DOUBLE, a);
        },
        {}, 1e-4);
  }
}

TEST(Gpu, GraphSplitAcrossDevicesAndVariablesStayOnTheGpu) {
  RILL_REQUIRE_GPU();
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_FLOAT);
  auto w = ops::Variable(root.WithOpName("w"), {{1.f, 2.f}, {3.f, 4.f}});
  auto y = ops::MatMul(root, x, w);                               // GPU
  auto t = ops::Transpose(root.WithDevice("/cpu:0"), y, {1, 0});  // CPU
  auto z = ops::Add(root.WithDevice("/GPU:0"), t, 1.f);           // back to the GPU
  auto step = ops::AssignAdd(root, w, {{1.f, 1.f}, {1.f, 1.f}});
  Session session(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(root)}, nullptr).ok());
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(session.Run({step}, &out).ok());
  ASSERT_TRUE(session.Run({{x, {{1.f, 0.f}}}}, {z, w}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, {2, 1}, {5, 6}, 1e-6);  // w = [[4,5],[6,7]]
  ExpectTensorNear(out[1], DT_FLOAT, {2, 2}, {4, 5, 6, 7}, 1e-6);
  EXPECT_EQ(*session.AssignedDevice(w.operation), "/job:localhost/replica:0/task:0/device:GPU:0");
  EXPECT_EQ(*session.AssignedDevice(t.operation), "/job:localhost/replica:0/task:0/device:CPU:0");
}

TEST(Gpu, OutOfMemoryIsAStatusAndTheSessionRecovers) {
  RILL_REQUIRE_GPU();
  Scope root = Scope::NewRootScope();
  auto dims = ops::Placeholder(root, DT_INT64);
  auto fill = ops::Fill(root.WithOpName("huge_fill").WithDevice("/GPU:0"), dims, 1.f);
  auto total = ops::Sum(root, fill, {0});
  Session session(root);
  std::vector<Tensor> out;
  Tensor huge(DT_INT64, TensorShape({1}));
  huge.flat<int64_t>()(0) = int64_t{1} << 40;  // 4 TiB of floats
  absl::Status s = session.Run({{dims, huge}}, {total}, &out);
  ASSERT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_NE(std::string(s.message()).find("huge_fill"), std::string::npos) << s;
  EXPECT_NE(std::string(s.message()).find("4398046511104 bytes"), std::string::npos) << s;
  Tensor small(DT_INT64, TensorShape({1}));
  small.flat<int64_t>()(0) = 1000;
  ASSERT_TRUE(session.Run({{dims, small}}, {total}, &out).ok());
  EXPECT_EQ(out[0].scalar<float>()(), 1000.f);
}

// A traced step on the GPU: the MatMul and the copies carry device times from CUDA events,
// and the Chrome trace has the GPU's stream track.
TEST(Gpu, TracedStepHasCudaEventTimes) {
  RILL_REQUIRE_GPU();
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  auto y = ops::MatMul(root.WithOpName("y").WithDevice("/GPU:0"), x, x);
  Session session(root);
  RunOptions traced;
  traced.trace_level = RunOptions::FULL_TRACE;
  RunMetadata meta;
  std::vector<Tensor> out;
  ASSERT_TRUE(
      session.Run(traced, {{x, RandomTensor(DT_FLOAT, {512, 512}, -1, 1, 4)}}, {y}, {}, &out, &meta)
          .ok());
  int gpu_nodes = 0, copies = 0;
  for (const NodeExecStats& n : meta.step_stats.nodes) {
    if (n.device.find("GPU:0") == std::string::npos) continue;
    ++gpu_nodes;
    copies += n.is_copy;
    EXPECT_GT(n.device_ns, 0) << n.node_name;
    // The device work of a node is queued and finished inside its step.
    EXPECT_LE(n.device_ns, meta.step_stats.wall_ns) << n.node_name;
  }
  EXPECT_GE(gpu_nodes, 2);  // x copied in, and y
  EXPECT_GE(copies, 1);
  EXPECT_NE(ToChromeTrace(meta.step_stats).find("device: stream"), std::string::npos);
}

}  // namespace
}  // namespace rill::testing
