// Regressions of the outside attack of November 2026 on graphs and Sessions: each test
// names the defect it guards (docs/robustness.md keeps the table). Every hostile input
// must come back as a Status naming what is wrong, with nothing corrupted.
#include <limits>
#include <thread>

#include "test_util.h"

namespace rill::testing {
namespace {
namespace hardening_test {

std::string Message(const absl::Status& s) { return std::string(s.message()); }

// Defect 1: paddings near INT64_MAX wrapped `before + after`, so the shape rule inferred a
// small shape and the kernel wrote past it. Both the shape rule (Const paddings) and the
// kernel (fed paddings of unknown value) must refuse it.
TEST(Hardening, PadPaddingsThatOverflowAreRefused) {
  const int64_t big = std::numeric_limits<int64_t>::max();
  for (std::vector<int64_t> pads :
       {std::vector<int64_t>{big, big}, {big, 1}, {1, big - 999}, {big / 2 + 1, big / 2 + 1}}) {
    Tensor x = FromDoubles(DT_FLOAT, TensorShape({1000}), std::vector<double>(1000, 1.0));
    Tensor p = FromDoubles(DT_INT64, TensorShape({1, 2}), {0, 0});
    p.base<int64_t>()[0] = pads[0];
    p.base<int64_t>()[1] = pads[1];
    auto pad = [](const Scope& s, const std::vector<Output>& in) {
      return ops::Pad(s, in[0], in[1]);
    };
    for (auto run : {RunOp, RunOpConst}) {
      auto got = run(pad, {x, p});
      ASSERT_FALSE(got.ok()) << pads[0] << " " << pads[1];
      EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument) << got.status();
      EXPECT_NE(Message(got.status()).find("beyond int64"), std::string::npos) << got.status();
    }
  }
  // Paddings that fit still pad.
  auto ok =
      RunOp([](const Scope& s, const std::vector<Output>& in) { return ops::Pad(s, in[0], in[1]); },
            {FromDoubles(DT_FLOAT, TensorShape({2}), {1, 2}),
             FromDoubles(DT_INT64, TensorShape({1, 2}), {1, 2})});
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ToDoubles(*ok), std::vector<double>({0, 1, 2, 0, 0}));
}

// Defect 11: (in + stride - 1) wrapped for strides near INT64_MAX: MaxPool SAME gave
// [1,0,0,1] for an input whose output is [1,1,1,1]; Conv2D reported a negative dim.
TEST(Hardening, StridesNearInt64MaxGiveTheRightShape) {
  const int64_t big = std::numeric_limits<int64_t>::max();
  Tensor x = FromDoubles(DT_FLOAT, TensorShape({1, 3, 3, 1}), {1, 2, 3, 4, 5, 6, 7, 8, 9});
  auto pool = RunOp(
      [&](const Scope& s, const std::vector<Output>& in) {
        return ops::MaxPool(s, in[0], {1, 1, 1, 1}, {1, big, big, 1}, "SAME");
      },
      {x});
  ASSERT_TRUE(pool.ok()) << pool.status();
  EXPECT_EQ(pool->shape(), TensorShape({1, 1, 1, 1}));
  EXPECT_EQ(ToDoubles(*pool), std::vector<double>({1}));
  Tensor f = FromDoubles(DT_FLOAT, TensorShape({1, 1, 1, 1}), {2});
  auto conv = RunOpConst(
      [&](const Scope& s, const std::vector<Output>& in) {
        return ops::Conv2D(s, in[0], in[1], {1, big, big, 1}, "SAME");
      },
      {x, f});
  ASSERT_TRUE(conv.ok()) << conv.status();
  EXPECT_EQ(conv->shape(), TensorShape({1, 1, 1, 1}));
  EXPECT_EQ(ToDoubles(*conv), std::vector<double>({2}));
  // A window so large that SAME padding cannot be expressed is an error, not a wrap.
  auto huge = RunOp(
      [&](const Scope& s, const std::vector<Output>& in) {
        return ops::MaxPool(s, in[0], {1, big, 1, 1}, {1, 1, 1, 1}, "SAME");
      },
      {x});
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().code(), absl::StatusCode::kInvalidArgument) << huge.status();
}

// Found by the keras fuzzer after the attack: a float convolution whose stride oneDNN
// cannot describe (2^62, with a window larger than the SAME-padded input) failed as
// Internal; such geometries now take the im2col path. Forward and both gradients must
// agree with the double kernels (always im2col).
TEST(Hardening, ConvolutionsWithHugeStridesMatchTheReferencePath) {
  auto as_double = [](const Tensor& t) { return FromDoubles(DT_DOUBLE, t.shape(), ToDoubles(t)); };
  for (int64_t size : {2, 5}) {
    Tensor x = RandomTensor(DT_FLOAT, TensorShape({2, size, size, 2}), -3, 3, 1);
    for (int64_t stride : {int64_t{1} << 31, int64_t{1} << 40, int64_t{1} << 62,
                           std::numeric_limits<int64_t>::max()}) {
      for (int64_t k : {1, 2, 3}) {
        for (const char* padding : {"SAME", "VALID"}) {
          if (std::string(padding) == "VALID" && k > size) continue;
          const std::vector<int64_t> strides = {1, stride, stride, 1};
          Tensor f = RandomTensor(DT_FLOAT, TensorShape({k, k, 2, 3}), -1, 1, 2);
          Tensor dy = RandomTensor(DT_FLOAT, TensorShape({2, 1, 1, 3}), -1, 1, 3);
          std::vector<BuildFn> passes = {
              [&](const Scope& s, const std::vector<Output>& in) {
                return ops::Conv2D(s, in[0], in[1], strides, padding);
              },
              [&](const Scope& s, const std::vector<Output>& in) {
                return ops::Conv2DBackpropInput(s, ops::Shape(s, in[0]), in[1], in[2], strides,
                                                padding);
              },
              [&](const Scope& s, const std::vector<Output>& in) {
                return ops::Conv2DBackpropFilter(s, in[0], ops::Shape(s, in[1]), in[2], strides,
                                                 padding);
              }};
          for (const BuildFn& pass : passes) {
            auto got = RunOp(pass, {x, f, dy});
            auto want = RunOp(pass, {as_double(x), as_double(f), as_double(dy)});
            ASSERT_TRUE(got.ok()) << size << " " << stride << " " << k << " " << padding << ": "
                                  << got.status();
            ASSERT_TRUE(want.ok()) << want.status();
            ExpectTensorNear(*got, DT_FLOAT, want->shape(), ToDoubles(*want), 1e-5);
          }
        }
      }
    }
  }
}

// Defect 2: an output index the node does not have, as a fetch or a feed, returned another
// node's value or read out of bounds.
TEST(Hardening, OutputIndicesOutOfRangeAreRefused) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Const(root.WithOpName("a"), 1.0f);
  auto b = ops::Const(root.WithOpName("b"), 2.0f);
  auto x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  auto y = ops::Identity(root.WithOpName("y"), x);
  Session session(root, SessionOptions(), CpuOnly());
  std::vector<Tensor> out;
  for (int index : {1, -1, 3, std::numeric_limits<int>::max(), std::numeric_limits<int>::min()}) {
    Output bad(a.node(), index);
    EXPECT_EQ(bad.type(), DT_INVALID);
    EXPECT_TRUE(bad.shape().unknown_rank());
    absl::Status st = session.Run({bad, b}, &out);
    ASSERT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << index;
    EXPECT_NE(Message(st).find("'a'"), std::string::npos) << st;
    EXPECT_NE(Message(st).find(absl::StrCat("index ", index)), std::string::npos) << st;
    EXPECT_TRUE(out.empty());
    st = session.Run({{Output(x.node(), index), 1.0f}}, {y}, &out);
    ASSERT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << index << ": " << st;
    EXPECT_NE(Message(st).find("'x'"), std::string::npos) << st;
    CallableOptions sig;
    sig.fetch = {bad};
    Session::CallableHandle h;
    EXPECT_EQ(session.MakeCallable(sig, &h).code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(session.ViewPlan(sig).status().code(), absl::StatusCode::kInvalidArgument);
  }
  // The same Session still runs valid signatures.
  ASSERT_TRUE(session.Run({{x, 3.0f}}, {y, b}, &out).ok());
  EXPECT_EQ(ToDoubles(out[0]), std::vector<double>({3}));
  EXPECT_EQ(ToDoubles(out[1]), std::vector<double>({2}));
}

// Defect 3: nodes of another Scope's graph aliased this graph's nodes of the same id in
// the plan cache (wrong values, a float for an int64 fetch) and B's Assign overwrote A's
// variable.
TEST(Hardening, NodesOfAnotherGraphAreRefused) {
  Scope a = Scope::NewRootScope(), b = Scope::NewRootScope();
  auto va = ops::Variable(a.WithOpName("v"), {1.0f, 2.0f});
  auto ca = ops::Const(a.WithOpName("c"), 5.0f);
  auto vb = ops::Variable(b.WithOpName("v"), {7.0f, 8.0f});
  auto cb = ops::Const(b.WithOpName("c"), int64_t{9});
  auto assign_b = ops::Assign(b, vb, {0.0f, 0.0f});
  Session session(a, SessionOptions(), CpuOnly());
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(a)}, nullptr).ok());
  ASSERT_TRUE(session.Run({ca}, &out).ok());  // caches a plan under c's node id
  for (absl::Status st :
       {session.Run({cb}, &out), session.Run({}, {}, {Operation(assign_b.node())}, &out),
        session.Run({{cb, int64_t{1}}}, {ca}, &out)}) {
    ASSERT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
    EXPECT_NE(Message(st).find("another graph"), std::string::npos) << st;
  }
  CallableOptions sig;
  sig.fetch = {cb};
  EXPECT_EQ(session.ViewPlan(sig).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(session.AssignedDevice(cb.op()).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(session.PlacementReason(Operation(vb.node())).status().code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(session.Run({va}, &out).ok());
  EXPECT_EQ(ToDoubles(out[0]), std::vector<double>({1, 2}));  // not overwritten
}

// Defect 12: Cast to an invalid dtype was built and failed at run time as "out of memory
// allocating 0 bytes".
TEST(Hardening, CastToAnInvalidDtypeIsRefusedAtConstruction) {
  for (int dt : {0, -1, 99, 1000}) {
    Scope root = Scope::NewRootScope();
    ops::Cast(root, ops::Const(root, 1.0f), static_cast<DataType>(dt));
    ASSERT_FALSE(root.status().ok()) << dt;
    EXPECT_EQ(root.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(Message(root.status()).find("Cast"), std::string::npos) << root.status();
    EXPECT_NE(Message(root.status()).find("DstT"), std::string::npos) << root.status();
  }
}

// Defect 15: a negative Transpose permutation was shown as "[?,0]".
TEST(Hardening, TransposeMessagesShowThePermutationGiven) {
  auto got = RunOp(
      [](const Scope& s, const std::vector<Output>& in) { return ops::Transpose(s, in[0], in[1]); },
      {FromDoubles(DT_FLOAT, TensorShape({2, 2}), {1, 2, 3, 4}),
       FromDoubles(DT_INT32, TensorShape({2}), {-1, 0})});
  ASSERT_FALSE(got.ok());
  EXPECT_NE(Message(got.status()).find("[-1,0]"), std::string::npos) << got.status();
}

// Defect 15: a kernel error that already names its node was prefixed twice.
TEST(Hardening, KernelErrorsNameTheirNodeOnce) {
  Scope root = Scope::NewRootScope();
  auto w = ops::Variable(root.WithOpName("w"), {1.0f, 2.0f});
  auto g = ops::Placeholder(root.WithOpName("g"), DT_FLOAT);
  auto step = ops::ApplyGradientDescent(root.WithOpName("step"), w, 0.1f, g);
  Session session(root, SessionOptions(), CpuOnly());
  ASSERT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(root)}, nullptr).ok());
  std::vector<Tensor> out;
  absl::Status st = session.Run({{g, {1.0f, 2.0f, 3.0f}}}, {step}, &out);
  ASSERT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  const std::string m = Message(st), name = "node 'step' (ApplyGradientDescent)";
  ASSERT_NE(m.find(name), std::string::npos) << m;
  EXPECT_EQ(m.find(name, m.find(name) + 1), std::string::npos) << m;
  EXPECT_NE(m.find("CPU:0"), std::string::npos) << m;
}

// Defect 10: inter_op_threads = 100000 aborted the constructor (std::system_error).
TEST(Hardening, BadThreadCountsAreAStatusNotAnAbort) {
  Scope root = Scope::NewRootScope();
  auto c = ops::Const(root, 1.0f);
  for (int threads : {-1, 100000, std::numeric_limits<int>::max()}) {
    SessionOptions o;
    o.inter_op_threads = threads;
    auto made = Session::Create(root, o);
    ASSERT_EQ(made.status().code(), absl::StatusCode::kInvalidArgument) << threads;
    EXPECT_NE(Message(made.status()).find("inter_op_threads"), std::string::npos);
    Session direct(root, o);  // the constructor reports it through every call
    std::vector<Tensor> out;
    EXPECT_EQ(direct.Run({c}, &out).code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(direct.status().code(), absl::StatusCode::kInvalidArgument);
  }
  auto made = Session::Create(root);
  ASSERT_TRUE(made.ok()) << made.status();
  std::vector<Tensor> out;
  ASSERT_TRUE((*made)->Run({c}, &out).ok());
  EXPECT_EQ(ToDoubles(out[0]), std::vector<double>({1}));
}

// Beside defect 10: a Session over devices without a CPU (or with a null one) is a
// Status too; plans need the host for feeds and fetches.
TEST(Hardening, SessionsWithoutACpuDeviceAreAStatus) {
  Scope root = Scope::NewRootScope();
  auto c = ops::Const(root, 1.0f);
  DeviceSet none;
  Session empty(root, SessionOptions(), none);
  std::vector<Tensor> out;
  EXPECT_EQ(empty.Run({c}, &out).code(), absl::StatusCode::kInvalidArgument);
  DeviceSet with_null = CpuOnly();
  with_null.Add(nullptr);
  Session null_device(root, SessionOptions(), with_null);
  EXPECT_EQ(null_device.Run({c}, &out).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(Message(null_device.status()).find("null device"), std::string::npos);
}

// Defect 13: destroying a Session while another thread is inside Run crashed. The
// contract: the destructor waits for calls in flight.
TEST(Hardening, DestroyingASessionWaitsForRunsInFlight) {
  for (int round = 0; round < 5; ++round) {
    Scope root = Scope::NewRootScope();
    auto x = ops::Placeholder(root, DT_FLOAT);
    auto y = ops::MatMul(root, x, x);
    for (int i = 0; i < 8; ++i) y = ops::MatMul(root, y, x);
    auto session = std::make_unique<Session>(root, SessionOptions(), CpuOnly());
    Tensor v = RandomTensor(DT_FLOAT, TensorShape({256, 256}), -0.01, 0.01, round);
    std::vector<std::thread> runners;
    std::vector<absl::Status> results(3);
    Session* raw = session.get();
    for (int t = 0; t < 3; ++t) {
      runners.emplace_back([&, t] {
        std::vector<Tensor> out;
        results[t] = raw->Run({{x, v}}, {y}, &out);
        if (results[t].ok() && out[0].shape() != TensorShape({256, 256})) {
          results[t] = absl::InternalError("wrong shape");
        }
      });
    }
    // Destroy while the calls are inside Run (each is a chain of nine 256^3 products).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (raw->calls_in_flight() < 3 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    session.reset();
    for (auto& t : runners) t.join();
    for (const auto& st : results) EXPECT_TRUE(st.ok()) << st;
  }
}

}  // namespace hardening_test
}  // namespace
}  // namespace rill::testing
