// Shapes, tensors, device names and the registries.
#include <cstdint>

#include "gradient_checker.h"
#include "rill/core/device_name.h"
#include "rill/core/kernel.h"
#include "rill/ops/gradients.h"
#include "support/op_tester.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace core_test {

TEST(TensorShape, OverflowAndNegativeDimsAreStatuses) {
  EXPECT_TRUE(TensorShape({2, 3}).valid());
  EXPECT_EQ(TensorShape({2, 3}).num_elements(), 6);
  EXPECT_EQ(TensorShape().num_elements(), 1);
  EXPECT_EQ(TensorShape({4, 0, 9}).num_elements(), 0);
  EXPECT_FALSE(TensorShape({2, -1}).valid());
  auto big = TensorShape::Build({int64_t{1} << 32, int64_t{1} << 32});
  EXPECT_EQ(big.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(TensorShape::Build({1, 1, 1, 1, 1, 1, 1, 1, 1}).ok());
  TensorShape s({3});
  s.AddDim(INT64_MAX);
  EXPECT_FALSE(s.valid());
  EXPECT_EQ(TensorShape({2, 3}).DebugString(), "[2,3]");
}

TEST(PartialTensorShape, Compatibility) {
  PartialTensorShape p({-1, 3});
  EXPECT_EQ(p.DebugString(), "[?,3]");
  EXPECT_TRUE(p.IsCompatibleWith(TensorShape({7, 3})));
  EXPECT_FALSE(p.IsCompatibleWith(TensorShape({7, 4})));
  EXPECT_FALSE(p.IsCompatibleWith(TensorShape({3})));
  EXPECT_TRUE(PartialTensorShape().IsCompatibleWith(TensorShape({1, 2, 3})));
  EXPECT_FALSE(p.AsTensorShape().ok());
  EXPECT_FALSE(PartialTensorShape::Build({-2}).ok());
}

TEST(Tensor, AlignedRefcountedAndTyped) {
  Tensor t(DT_FLOAT, TensorShape({3, 5}));
  ASSERT_TRUE(t.IsInitialized());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data()) % 64, 0u);
  EXPECT_TRUE(t.RefCountIsOne());
  Tensor u = t;
  EXPECT_FALSE(t.RefCountIsOne());
  EXPECT_TRUE(u.SharesBufferWith(t));
  t.matrix<float>()(2, 4) = 7.f;
  EXPECT_EQ(u.flat<float>()(14), 7.f);
  Tensor d = t.DeepCopy();
  EXPECT_FALSE(d.SharesBufferWith(t));
  EXPECT_EQ(d.flat<float>()(14), 7.f);
  EXPECT_EQ(Tensor(3.5).scalar<double>()(), 3.5);
  EXPECT_EQ(Tensor(true).dtype(), DT_BOOL);
  EXPECT_EQ(Tensor(uint8_t{200}).DebugString(), "Tensor<type: uint8 shape: [] values: 200>");
  EXPECT_EQ(t.matrix<float>().dimension(0), 3);
}

// A helper taking const Tensor&, as users write them: every view compiles and reads.
float SumOfViews(const Tensor& m, const Tensor& s) {
  return m.flat<float>()(0) + m.matrix<float>()(1, 2) + m.tensor<float, 2>()(0, 1) +
         m.shaped<float, 1>({6})(5) + s.scalar<float>()() + s.flat<float>()(0);
}

TEST(Tensor, ConstViewsRead) {
  Tensor m(DT_FLOAT, TensorShape({2, 3}));
  for (int i = 0; i < 6; ++i) m.flat<float>()(i) = static_cast<float>(i);
  Tensor v(DT_INT64, TensorShape({3}));
  v.vec<int64_t>().setValues({4, 5, 6});
  const Tensor& cv = v;
  EXPECT_EQ(cv.vec<int64_t>()(2), 6);
  EXPECT_EQ(SumOfViews(m, Tensor(2.5f)), 0 + 5 + 1 + 5 + 2.5f + 2.5f);
}

TEST(Tensor, CheckedViewsReturnStatuses) {
  const Tensor f(1.5f);
  ASSERT_TRUE(f.checked_scalar<float>().ok());
  EXPECT_EQ((*f.checked_scalar<float>())(), 1.5f);
  absl::Status wrong = f.checked_scalar<int32_t>().status();
  EXPECT_EQ(wrong.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(wrong.message(),
            "cannot read a tensor of dtype float and shape [] as a scalar of int32");
  Tensor m(DT_FLOAT, TensorShape({2, 3}));
  EXPECT_TRUE(m.checked_matrix<float>().ok());
  EXPECT_TRUE(m.checked_flat<float>().ok());
  (*m.checked_flat<float>())(4) = 9.f;
  EXPECT_EQ(m.matrix<float>()(1, 1), 9.f);
  EXPECT_EQ(m.checked_vec<float>().status().message(),
            "cannot read a tensor of dtype float and shape [2,3] as a view of rank 1 of float");
  EXPECT_EQ(m.checked_scalar<float>().status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ((m.checked_tensor<double, 2>().status().code()), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(Tensor().checked_flat<int32_t>().status().message()),
            "cannot read a tensor of dtype float and shape [0] (not initialized) as a flat "
            "view of int32");
}

// As TensorFlow's Tensor(): float, shape [0], no elements, and its views map nothing.
TEST(Tensor, DefaultIsAnEmptyFloatVector) {
  const Tensor t;
  EXPECT_EQ(t.dtype(), DT_FLOAT);
  EXPECT_EQ(t.shape(), TensorShape({0}));
  EXPECT_EQ(t.NumElements(), 0);
  EXPECT_FALSE(t.IsInitialized());
  EXPECT_EQ(t.flat<float>().size(), 0);
  ASSERT_TRUE(t.checked_vec<float>().ok());
  EXPECT_EQ(t.checked_vec<float>()->size(), 0);
  EXPECT_FALSE(t.checked_scalar<float>().ok());
}

// A view that does not fit is a bug in the caller: a debug build stops, a release build
// logs and maps nothing (it never reads past the buffer).
TEST(TensorDeathTest, MisfitViewsStopInDebugAndAreEmptyInRelease) {
  Tensor t(DT_FLOAT, TensorShape({3, 5}));
  EXPECT_DEBUG_DEATH(EXPECT_EQ(t.flat<int32_t>().size(), 0), "does not fit");
  EXPECT_DEBUG_DEATH(EXPECT_EQ((t.tensor<float, 3>().size()), 0), "does not fit");
  EXPECT_DEBUG_DEATH(EXPECT_EQ(t.scalar<float>()(), 0.f), "does not fit");
  const Tensor& c = t;
  EXPECT_DEBUG_DEATH(EXPECT_EQ(c.vec<double>().size(), 0), "does not fit");
}

TEST(Tensor, BadShapesAndHugeAllocationsAreStatuses) {
  Tensor bad(DT_FLOAT, TensorShape({-1}));
  EXPECT_FALSE(bad.IsInitialized());
  EXPECT_EQ(Tensor::Create(DT_FLOAT, TensorShape({-1})).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Tensor::Create(DT_DOUBLE, TensorShape({int64_t{1} << 61})).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Tensor::Create(DT_FLOAT, TensorShape({int64_t{1} << 50})).status().code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(Tensor::Create(DT_INVALID, TensorShape({1})).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(DeviceName, ParsesTensorFlowForms) {
  auto p = [](const char* s) { return DeviceName::Parse(s); };
  EXPECT_EQ(p("/CPU:0")->type, "CPU");
  EXPECT_EQ(p("/cpu:0")->type, "CPU");
  EXPECT_EQ(p("/device:GPU:0")->id, 0);
  EXPECT_EQ(p("/GPU:*")->id, -1);
  auto full = p("/job:localhost/replica:0/task:0/device:CPU:0");
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full->job, "localhost");
  EXPECT_EQ(full->ToString(), "/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_TRUE(p("")->IsEmpty());
  DeviceName cpu0 = *p("/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_TRUE(p("/cpu:0")->Matches(cpu0));
  EXPECT_TRUE(p("/device:CPU:*")->Matches(cpu0));
  EXPECT_FALSE(p("/GPU:0")->Matches(cpu0));
  EXPECT_FALSE(p("/CPU:1")->Matches(cpu0));
  for (const char* bad : {"CPU:0", "/CPU:x", "/device:", "/job:", "/foo/bar", "/CPU:-1",
                          "/device:G$U:0", "/replica:a"}) {
    EXPECT_EQ(p(bad).status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
}

TEST(Registry, UnknownOpsAndBadEdgesAreStatuses) {
  Graph g;
  NodeSpec spec;
  spec.name = "n";
  spec.op = "NoSuchOp";
  EXPECT_EQ(g.AddNode(spec).status().code(), absl::StatusCode::kNotFound);
  spec.op = "NoOp";
  spec.name = "bad name!";
  EXPECT_EQ(g.AddNode(spec).status().code(), absl::StatusCode::kInvalidArgument);
  Graph other;
  NodeSpec c{"c", "Const", {}, {}, {{"value", Tensor(1.0f)}, {"dtype", DT_FLOAT}}, "", ""};
  Node* foreign = *other.AddNode(c);
  NodeSpec id{"id", "Identity", {{foreign, 0}}, {}, {}, "", ""};
  EXPECT_EQ(g.AddNode(id).status().code(), absl::StatusCode::kInvalidArgument);
  Node* mine = *g.AddNode(c);
  NodeSpec out_of_range{"id", "Identity", {{mine, 3}}, {}, {}, "", ""};
  EXPECT_EQ(g.AddNode(out_of_range).status().code(), absl::StatusCode::kInvalidArgument);
  NodeSpec attr{"x", "Const", {}, {}, {{"value", Tensor(1.0f)}, {"dtype", int64_t{1}}}, "", ""};
  EXPECT_EQ(g.AddNode(attr).status().code(), absl::StatusCode::kInvalidArgument);
  NodeSpec missing{"y", "Placeholder", {}, {}, {}, "", ""};
  EXPECT_EQ(g.AddNode(missing).status().code(), absl::StatusCode::kInvalidArgument);
}

// Every registered op, the runtime's own `_` ops included, has a shape function, a CPU
// kernel, a test case, and a gradient checked numerically or an explicit "not
// differentiable"; every op with a GPU kernel has an op case (support/op_tester.h), which
// runs it on the GPU wherever one is present.
TEST(Registry, EveryOpIsComplete) {
  const auto cpu = KernelRegistry::Global()->OpsWithKernels(DEVICE_CPU);
  for (const std::string& op : OpRegistry::Global()->ListOps()) {
    SCOPED_TRACE(op);
    EXPECT_TRUE(static_cast<bool>(OpRegistry::Global()->LookUp(op)->shape_fn));
    EXPECT_TRUE(TestedOps().contains(op)) << "no test case marks this op as tested";
    // The partition pass's transfer between two devices: its kernels are per device pair
    // (kernels/*/copy_ops.cc), and it is made after gradients.
    if (op == "_Copy") continue;
    EXPECT_TRUE(std::find(cpu.begin(), cpu.end(), op) != cpu.end()) << "no CPU kernel";
    const bool no_grad = ops::GradOpRegistry::Global()->IsNotDifferentiable(op);
    const bool has_grad = ops::GradOpRegistry::Global()->Lookup(op) != nullptr;
    EXPECT_TRUE(no_grad != has_grad) << "needs exactly one of a gradient or not-differentiable";
    if (has_grad) {
      EXPECT_TRUE(GradTestedOps().contains(op)) << "no numeric gradient check";
    }
  }
}

TEST(Registry, EveryGpuKernelHasAnOpCase) {
  std::set<std::string> covered;
  for (const OpCase& c : AllOpCases()) {
    for (const std::string& op : OpsOf(c)) covered.insert(op);
  }
  const auto gpu = KernelRegistry::Global()->OpsWithKernels(DEVICE_GPU);
  for (const std::string& op : gpu) {
    EXPECT_TRUE(covered.contains(op)) << op << " has a GPU kernel but no op case";
  }
  std::printf("%zu ops with GPU kernels, all in op cases\n", gpu.size());
}

}  // namespace core_test
}  // namespace
}  // namespace rill::testing

namespace rill::testing {
namespace {
namespace core_test {

TEST(CpuAllocator, LargeBlocksAreReusedAndNeverOverlap) {
  Allocator* a = cpu_allocator();
  const size_t big = 1 << 20;
  void* p = a->AllocateRaw(64, big);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
  a->DeallocateRaw(p, big);
  CpuAllocatorStats before = GetCpuAllocatorStats();
  void* q = a->AllocateRaw(64, big);
  EXPECT_EQ(q, p);  // the cached block comes back
  EXPECT_EQ(GetCpuAllocatorStats().cache_hits, before.cache_hits + 1);
  // Live blocks are disjoint, small and large.
  std::vector<std::pair<char*, size_t>> live = {{static_cast<char*>(q), big}};
  for (size_t bytes : {size_t{16}, size_t{100000}, size_t{1} << 20, size_t{4096}, size_t{70000}}) {
    char* r = static_cast<char*>(a->AllocateRaw(64, bytes));
    ASSERT_NE(r, nullptr);
    for (auto [s, n] : live) EXPECT_TRUE(r + bytes <= s || s + n <= r);
    live.push_back({r, bytes});
  }
  for (auto [s, n] : live) a->DeallocateRaw(s, n);
  EXPECT_EQ(a->AllocateRaw(64, size_t{1} << 50), nullptr);  // refused, not an abort
}

TEST(KernelDef, HostInputsCountFromTheEndWhenNegative) {
  KernelDef def;
  def.host_memory_inputs = {1, -1};  // ConcatV2-style: the last input, whatever N is
  EXPECT_TRUE(def.ReadsOnHost(1, 4));
  EXPECT_TRUE(def.ReadsOnHost(3, 4));
  EXPECT_FALSE(def.ReadsOnHost(2, 4));
  EXPECT_FALSE(def.ReadsOnHost(0, 4));
  EXPECT_TRUE(def.ReadsOnHost(2, 3));
}

}  // namespace core_test
}  // namespace
}  // namespace rill::testing
