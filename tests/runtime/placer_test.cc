// The placer, copy insertion and the device caching allocator, against a fake accelerator.
#include "fake_device.h"
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "test_util.h"

namespace rill::testing {

void RegisterFakeGpuKernels() {
  static const bool once = [] {
    // Sub has no fake-GPU kernel on purpose: it must land on the CPU.
    for (const char* op : {"Const", "Identity", "Add", "Mul", "MatMul", "Variable", "Assign",
                           "AssignAdd", "NoOp", "Sum"}) {
      std::vector<KernelDef> defs = KernelRegistry::Global()->DefsFor(op);
      for (KernelDef d : defs) {
        if (d.device_type != DEVICE_CPU) continue;
        if (d.dtype != DT_INVALID && d.dtype != DT_FLOAT) continue;
        d.device_type = kFakeGpu;
        KernelRegistry::Global()->Register(std::move(d));
      }
    }
    // Kernels that run on an accelerator but compute on the host: as a GPU build has them.
    for (const char* op : {"Shape", "Size", "BroadcastGradientArgs"}) {
      // A copy: registering appends to the registry's list being read.
      const std::vector<KernelDef> defs = KernelRegistry::Global()->DefsFor(op);
      for (KernelDef d : defs) {
        if (d.device_type != DEVICE_GPU) continue;
        d.device_type = kFakeGpu;
        KernelRegistry::Global()->Register(std::move(d));
      }
    }
    return true;
  }();
  (void)once;
}

DeviceSet FakeGpuDevices(std::shared_ptr<FakeGpuDevice> gpu) {
  DeviceSet set;
  set.Add(std::move(gpu));
  DeviceSet local = DeviceSet::Local();
  for (const auto& d : local.devices()) {
    if (d->device_type() == DEVICE_CPU) set.Add(d);
  }
  return set;
}

namespace {
namespace placer_test {

MarkTested tested({"_Copy"});

constexpr char kGpuName[] = "/job:localhost/replica:0/task:0/device:FAKE_GPU:0";
constexpr char kCpuName[] = "/job:localhost/replica:0/task:0/device:CPU:0";

class PlacerTest : public ::testing::Test {
 protected:
  void SetUp() override { RegisterFakeGpuKernels(); }
  std::unique_ptr<Session> MakeSession(const Scope& root, bool soft = true,
                                       size_t memory = size_t{1} << 30) {
    gpu_ = std::make_shared<FakeGpuDevice>(0, memory);
    SessionOptions o;
    o.allow_soft_placement = soft;
    // These tests count the copies between devices that the graph as written needs;
    // constant folding would compute their constant graphs away.
    o.optimize_graph = false;
    return std::make_unique<Session>(root, o, FakeGpuDevices(gpu_));
  }
  std::shared_ptr<FakeGpuDevice> gpu_;
};

TEST_F(PlacerTest, DefaultsToTheAcceleratorAndCopiesAcrossDevices) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  auto y = ops::Add(root.WithOpName("y"), x, 1.f);   // accelerator
  auto z = ops::Sub(root.WithOpName("z"), y, 0.5f);  // no accelerator kernel: CPU
  auto w = ops::Mul(root.WithOpName("w"), y, 2.f);   // accelerator
  auto session = MakeSession(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session->Run({{x, {1.f, 2.f}}}, {z, w}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, {2}, {1.5, 2.5}, 0);
  ExpectTensorNear(out[1], DT_FLOAT, {2}, {4, 6}, 0);
  EXPECT_TRUE(out[0].OnHost());
  EXPECT_TRUE(out[1].OnHost());
  EXPECT_EQ(*session->AssignedDevice(y.operation), kGpuName);
  EXPECT_EQ(*session->AssignedDevice(w.operation), kGpuName);
  EXPECT_EQ(*session->AssignedDevice(z.operation), kCpuName);
  // To the device: x for y. To the host: y for z, the Const 0.5 for z (constants default
  // to the accelerator like everything else), and w for the fetch.
  EXPECT_EQ(gpu_->to_device.load(), 1);
  EXPECT_EQ(gpu_->to_host.load(), 3);
}

// Shape, Size and BroadcastGradientArgs placed on the accelerator read shapes, not data:
// their outputs are made on the host, so nothing is copied back to read them.
TEST_F(PlacerTest, ShapeKernelsOnTheAcceleratorKeepTheirOutputsOnTheHost) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  auto y = ops::Mul(root.WithOpName("y"), x, x);  // accelerator
  auto shape = ops::Shape(root.WithOpName("shape"), y);
  auto size = ops::Size(root.WithOpName("size"), y);
  auto args = ops::BroadcastGradientArgs(
      root.WithOpName("args"), shape,
      ops::Shape(root, ops::Sum(root, y, {0}, ops::Sum::KeepDims(true))));
  auto session = MakeSession(root);
  std::vector<Tensor> out;
  Tensor xv(DT_FLOAT, TensorShape({3, 2}));
  xv.flat<float>().setConstant(2.f);
  ASSERT_TRUE(session->Run({{x, xv}}, {shape, size, args.r0, args.r1}, &out).ok());
  ExpectTensorNear(out[0], DT_INT32, {2}, {3, 2}, 0);
  ExpectTensorNear(out[1], DT_INT32, {}, {6}, 0);
  EXPECT_EQ(out[2].NumElements(), 0);               // x's shape needs no reduction
  ExpectTensorNear(out[3], DT_INT32, {1}, {0}, 0);  // [1, 2] is summed over axis 0
  for (const auto& op : {shape.operation, size.operation, args.operation}) {
    EXPECT_EQ(*session->AssignedDevice(op), kGpuName) << op.name();
  }
  EXPECT_EQ(gpu_->to_device.load(), 1);  // x
  EXPECT_EQ(gpu_->to_host.load(), 0);    // no tensor came back to read its shape
}

TEST_F(PlacerTest, OneCopyPerValueAndDevice) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Const(root.WithDevice("/cpu:0"), {1.f, 2.f, 3.f});
  auto b = ops::Add(root, a, a);  // accelerator; a crosses once
  auto c = ops::Mul(root, a, b);  // accelerator; a already there
  auto session = MakeSession(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session->Run({c}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, {3}, {2, 8, 18}, 0);
  EXPECT_EQ(gpu_->to_device.load(), 1);
  EXPECT_EQ(gpu_->to_host.load(), 1);
}

// A value copied to the host only to be fetched may arrive by the step's Sync; one that a
// CPU node reads must be there before that node runs.
TEST_F(PlacerTest, FetchOnlyCopiesMayFinishAtTheStepsEnd) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Const(root.WithDevice("/cpu:0"), {1.f, 2.f, 3.f});
  auto b = ops::Add(root, a, a);                    // accelerator
  auto c = ops::Mul(root, b, b);                    // accelerator, fetched only
  auto d = ops::Neg(root.WithDevice("/cpu:0"), b);  // b crosses for a CPU node
  auto session = MakeSession(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session->Run({c}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, {3}, {4, 16, 36}, 0);
  EXPECT_EQ(gpu_->to_host.load(), 1);
  EXPECT_EQ(gpu_->to_host_until_sync.load(), 1);
  ASSERT_TRUE(session->Run({b, d}, &out).ok());  // b's copy also feeds d: not deferred
  ExpectTensorNear(out[0], DT_FLOAT, {3}, {2, 4, 6}, 0);
  ExpectTensorNear(out[1], DT_FLOAT, {3}, {-2, -4, -6}, 0);
  EXPECT_EQ(gpu_->to_host.load(), 2);
  EXPECT_EQ(gpu_->to_host_until_sync.load(), 1);
}

TEST_F(PlacerTest, ExplicitAndPartialRequests) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Add(root.WithDevice("/cpu:0"), 1.f, 2.f);
  auto b = ops::Add(root.WithDevice("/device:FAKE_GPU:*"), a, 1.f);
  auto c = ops::Add(root.WithDevice("/job:localhost/replica:0/task:0/device:CPU:0"), b, 1.f);
  auto d = ops::Add(root.WithDevice("/FAKE_GPU:0"), c, 1.f);
  auto session = MakeSession(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session->Run({d}, &out).ok());
  EXPECT_EQ(out[0].scalar<float>()(), 6.f);
  EXPECT_EQ(*session->AssignedDevice(a.operation), kCpuName);
  EXPECT_EQ(*session->AssignedDevice(b.operation), kGpuName);
  EXPECT_EQ(*session->AssignedDevice(c.operation), kCpuName);
  EXPECT_EQ(*session->AssignedDevice(d.operation), kGpuName);
  EXPECT_NE(session->PlacementReason(b.operation)->find("requested"), std::string::npos);
}

TEST_F(PlacerTest, SoftPlacementFallsBackAndSaysWhy) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Sub(root.WithOpName("sub").WithDevice("/device:FAKE_GPU:0"), 3.f, 1.f);
  auto b = ops::Add(root.WithOpName("add").WithDevice("/FAKE_GPU:7"), a, 1.f);
  auto session = MakeSession(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session->Run({b}, &out).ok());
  EXPECT_EQ(out[0].scalar<float>()(), 3.f);
  EXPECT_EQ(*session->AssignedDevice(a.operation), kCpuName);
  auto why = session->PlacementReason(a.operation);
  EXPECT_NE(why->find("soft placement"), std::string::npos) << *why;
  EXPECT_NE(why->find("devices with a kernel for it: " + std::string(kCpuName)), std::string::npos)
      << *why;
  EXPECT_EQ(*session->AssignedDevice(b.operation), kGpuName);  // FAKE_GPU:7 is absent
}

TEST_F(PlacerTest, HardPlacementErrorIsShortAndComplete) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Sub(root.WithOpName("sub").WithDevice("/device:FAKE_GPU:0"), 3.f, 1.f);
  auto session = MakeSession(root, /*soft=*/false);
  std::vector<Tensor> out;
  absl::Status s = session->Run({a}, &out);
  ASSERT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  std::string m(s.message());
  for (const char* part : {"'sub'", "(Sub)", "float", "/device:FAKE_GPU:0", kCpuName}) {
    EXPECT_NE(m.find(part), std::string::npos) << part << " missing from: " << m;
  }
  EXPECT_LT(m.size(), 400u) << m;
}

// A node whose T is a list of types (While's) pinned where it has no kernel: the error
// names the list; it once aborted the process on a std::get of a single type.
TEST_F(PlacerTest, HardPlacementErrorNamesAListOfTypes) {
  Scope root = Scope::NewRootScope();
  OutputList out;
  RILL_ASSERT_OK(ops::BuildWhileLoop(
      root.WithDevice("/device:FAKE_GPU:0"), {ops::Const(root, 0), ops::Const(root, 0.f)},
      [](const Scope& s, const std::vector<Output>& v, Output* o) {
        *o = ops::Less(s, v[0], 3);
        return s.status();
      },
      [](const Scope& s, const std::vector<Output>& v, std::vector<Output>* o) {
        *o = {ops::Add(s, v[0], 1), ops::Add(s, v[1], 2.f)};
        return s.status();
      },
      "loop", &out));
  auto session = MakeSession(root, /*soft=*/false);
  std::vector<Tensor> got;
  absl::Status s = session->Run({out[1]}, &got);
  ASSERT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  std::string m(s.message());
  for (const char* part : {"'loop'", "(While)", "[int32, float]", "/device:FAKE_GPU:0"}) {
    EXPECT_NE(m.find(part), std::string::npos) << part << " missing from: " << m;
  }
  // With soft placement the same graph runs on the CPU.
  auto soft = MakeSession(root);
  RILL_ASSERT_OK(soft->Run({out[1]}, &got));
  EXPECT_EQ(got[0].scalar<float>()(), 6.f);
}

TEST_F(PlacerTest, VariablesStayWithTheirUpdatesAndKeepValues) {
  Scope root = Scope::NewRootScope();
  auto v = ops::Variable(root.WithOpName("v"), {1.f, 2.f});
  auto up = ops::AssignAdd(root.WithOpName("up"), v, {1.f, 1.f});
  auto read = ops::Sub(root.WithOpName("read"), v, 0.f);  // CPU reads a device variable
  auto iv = ops::Variable(root.WithOpName("iv"), 5);      // int32: no device kernel
  auto iup = ops::AssignAdd(root.WithOpName("iup"), iv, 1);
  auto session = MakeSession(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session->Run({}, {}, {ops::GlobalVariablesInitializer(root)}, nullptr).ok());
  for (int i = 0; i < 3; ++i) {
    absl::Status st = session->Run({up, iup}, &out);
    ASSERT_TRUE(st.ok()) << st;
  }
  ASSERT_TRUE(session->Run({v, read, iv}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, {2}, {4, 5}, 0);
  ExpectTensorNear(out[1], DT_FLOAT, {2}, {4, 5}, 0);
  EXPECT_EQ(out[2].scalar<int32_t>()(), 8);
  EXPECT_TRUE(out[0].OnHost());
  EXPECT_EQ(*session->AssignedDevice(v.operation), kGpuName);
  EXPECT_EQ(*session->AssignedDevice(up.operation), kGpuName);
  EXPECT_EQ(*session->AssignedDevice(read.operation), kCpuName);
  EXPECT_EQ(*session->AssignedDevice(iv.operation), kCpuName);  // its group has no device kernel
  EXPECT_EQ(*session->AssignedDevice(iup.operation), kCpuName);
}

// The run that initializes a variable places it, and with it every op of the graph that
// takes it by reference, even one only a later run reaches: AssignSub has no kernel on
// the accelerator, so the variable goes to the CPU from the start (it once went to the
// accelerator with its Assign, and the later run failed to colocate AssignSub with it).
TEST_F(PlacerTest, AVariableGoesWhereEveryOpUpdatingItHasAKernelEvenInLaterRuns) {
  Scope root = Scope::NewRootScope();
  auto v = ops::Variable(root.WithOpName("v"), TensorShape({2}), DT_FLOAT);
  auto init = ops::Assign(root.WithOpName("init"), v, {5.f, 7.f});
  auto sub = ops::AssignSub(root.WithOpName("sub"), v, {1.f, 2.f});
  auto session = MakeSession(root);
  std::vector<Tensor> out;
  RILL_ASSERT_OK(session->Run({init}, &out));
  RILL_ASSERT_OK(session->Run({sub}, &out));
  ExpectTensorNear(out[0], DT_FLOAT, {2}, {4, 5}, 0);
  for (const Operation& op : {v.operation, init.operation, sub.operation}) {
    EXPECT_EQ(*session->AssignedDevice(op), kCpuName) << op.name();
  }
  // A variable whose every update has an accelerator kernel still goes there.
  auto w = ops::Variable(root.WithOpName("w"), TensorShape({2}), DT_FLOAT);
  auto w_init = ops::Assign(root.WithOpName("w_init"), w, {1.f, 1.f});
  auto w_add = ops::AssignAdd(root.WithOpName("w_add"), w, {1.f, 2.f});
  RILL_ASSERT_OK(session->Run({w_init}, &out));
  RILL_ASSERT_OK(session->Run({w_add}, &out));
  ExpectTensorNear(out[0], DT_FLOAT, {2}, {2, 3}, 0);
  EXPECT_EQ(*session->AssignedDevice(w.operation), kGpuName);
  // An op added to the graph after that joins the variable's group, which is bound: with
  // no kernel there it is an error naming both (TensorFlow's too, once a variable is placed).
  auto w_sub = ops::AssignSub(root.WithOpName("w_sub"), w, {1.f, 1.f});
  absl::Status st = session->Run({w_sub}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  for (const char* part : {"'w_sub'", "with 3 other node(s)", "'w'", kGpuName}) {
    EXPECT_NE(std::string(st.message()).find(part), std::string::npos) << part << ": " << st;
  }
}

TEST_F(PlacerTest, LogDevicePlacementPrintsEachNode) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Add(root.WithOpName("a"), 1.f, 2.f);
  gpu_ = std::make_shared<FakeGpuDevice>(0, 1 << 20);
  SessionOptions o;
  o.log_device_placement = true;
  Session session(root, o, FakeGpuDevices(gpu_));
  ::testing::internal::CaptureStderr();
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({a}, &out).ok());
  std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find(std::string("a (Add): ") + kGpuName), std::string::npos) << log;
}

TEST_F(PlacerTest, OutOfDeviceMemoryIsAStatusAndTheSessionRecovers) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  auto y = ops::Mul(root.WithOpName("big_mul"), x, 2.f);
  auto session = MakeSession(root, true, /*memory=*/size_t{4} << 20);  // 4 MiB "card"
  std::vector<Tensor> out;
  Tensor big(DT_FLOAT, TensorShape({1024, 1024}));  // 4 MiB: x plus y cannot both fit
  big.flat<float>().setConstant(1.f);
  absl::Status s = session->Run({{x, big}}, {y}, &out);
  ASSERT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  std::string m(s.message());
  EXPECT_NE(m.find("big_mul"), std::string::npos) << m;
  EXPECT_NE(m.find("[1024,1024]"), std::string::npos) << m;
  EXPECT_NE(m.find("4194304 bytes"), std::string::npos) << m;
  EXPECT_NE(m.find("FAKE_GPU"), std::string::npos) << m;
  EXPECT_GE(gpu_->caching_allocator().GetStats().num_ooms, 1);
  Tensor small(DT_FLOAT, TensorShape({256, 256}));
  small.flat<float>().setConstant(3.f);
  ASSERT_TRUE(session->Run({{x, small}}, {y}, &out).ok());
  EXPECT_EQ(out[0].flat<float>()(0), 6.f);
  EXPECT_EQ(gpu_->caching_allocator().GetStats().bytes_in_use, 0);
}

TEST(CachingAllocator, ReusesBlocksNeverOverlapsAndReportsOom) {
  CachingAllocator a("test", std::make_unique<FakeMemory>(size_t{64} << 20));
  EXPECT_EQ(CachingAllocator::RoundSize(1), 512u);
  EXPECT_EQ(CachingAllocator::RoundSize((1 << 20) + 1), size_t{2} << 20);
  void* p = a.AllocateRaw(64, 1000);
  a.DeallocateRaw(p, 1000);
  void* q = a.AllocateRaw(64, 900);  // same 1024-byte block
  EXPECT_EQ(p, q);
  EXPECT_EQ(a.GetStats().num_cache_hits, 1);
  std::vector<std::pair<char*, size_t>> live = {{static_cast<char*>(q), 900}};
  for (size_t n : {size_t{10}, size_t{5000}, size_t{3} << 20, size_t{512}, size_t{1} << 20}) {
    char* r = static_cast<char*>(a.AllocateRaw(64, n));
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(r) % 64, 0u);
    for (auto [s, m] : live) EXPECT_TRUE(r + n <= s || s + m <= r);
    live.push_back({r, n});
  }
  // A request beyond the limit fails cleanly, even after releasing the cache.
  EXPECT_EQ(a.AllocateRaw(64, size_t{100} << 20), nullptr);
  EXPECT_EQ(a.GetStats().num_ooms, 1);
  for (auto [s, m] : live) a.DeallocateRaw(s, m);
  EXPECT_EQ(a.GetStats().bytes_in_use, 0);
  EXPECT_GT(a.GetStats().bytes_reserved, 0);  // kept for reuse
  // Cached blocks are given back when a large request needs the room.
  void* huge = a.AllocateRaw(64, size_t{60} << 20);
  EXPECT_NE(huge, nullptr);
  a.DeallocateRaw(huge, size_t{60} << 20);
  a.ReleaseCached();
  EXPECT_EQ(a.GetStats().bytes_reserved, 0);
  // Device memory is not the host's; a pinned-host cache (a GPU's staging) is.
  EXPECT_FALSE(a.OnHost());
  CachingAllocator pinned("pinned", std::make_unique<FakeMemory>(size_t{1} << 20), true);
  EXPECT_TRUE(pinned.OnHost());
}

}  // namespace placer_test
}  // namespace
}  // namespace rill::testing

namespace rill::testing {
namespace {
namespace placer_test {

class SyncCountingDevice : public FakeGpuDevice {
 public:
  using FakeGpuDevice::FakeGpuDevice;
  absl::Status Sync() override {
    ++syncs;
    return fail ? absl::InternalError("asynchronous kernel failure") : absl::OkStatus();
  }
  absl::Status FinishStepAsync() override {
    ++queued_ends;
    return fail ? absl::InternalError("asynchronous kernel failure") : absl::OkStatus();
  }
  std::atomic<int> syncs{0}, queued_ends{0};
  bool fail = false;
};

TEST(DeviceMemoryStats, NamedDevicesOnlyAndSaysWhy) {
  absl::StatusOr<DeviceMemoryStats> cpu = GetDeviceMemoryStats("/CPU:0");
  ASSERT_EQ(cpu.status().code(), absl::StatusCode::kInvalidArgument) << cpu.status();
  EXPECT_NE(std::string(cpu.status().message()).find("device:CPU:0"), std::string::npos);
  absl::StatusOr<DeviceMemoryStats> absent = GetDeviceMemoryStats("/GPU:7");
  ASSERT_EQ(absent.status().code(), absl::StatusCode::kNotFound) << absent.status();
  EXPECT_NE(std::string(absent.status().message()).find("present: "), std::string::npos);
  EXPECT_EQ(GetDeviceMemoryStats("/GPU:zero").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(DeviceSync, RunsEndBySyncingTheirDevicesAndReportTheirErrors) {
  RegisterFakeGpuKernels();
  Scope root = Scope::NewRootScope();
  auto v = ops::Variable(root, {1.f});
  auto up = ops::AssignAdd(root, v, {1.f});
  auto cpu_only = ops::Sub(root.WithDevice("/cpu:0"), 1.f, 2.f);
  auto dev = std::make_shared<SyncCountingDevice>(0, 1 << 20);
  Session session(root, SessionOptions(), FakeGpuDevices(dev));
  ASSERT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(root)}, nullptr).ok());
  ASSERT_TRUE(session.Run({}, {}, {up.operation}, nullptr).ok());  // nothing fetched: still synced
  EXPECT_EQ(dev->syncs.load(), 2);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({cpu_only}, &out).ok());  // no device work: no sync
  EXPECT_EQ(dev->syncs.load(), 2);
  dev->fail = true;
  absl::Status s = session.Run({}, {}, {up.operation}, nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_NE(std::string(s.message()).find("FAKE_GPU:0: asynchronous kernel failure"),
            std::string::npos)
      << s;
}

// RunOptions::wait_for_devices = false lets a step that fetches nothing end without
// waiting for its device; a step that fetches, or is traced, still waits.
TEST(DeviceSync, StepsThatFetchNothingMayLeaveTheirWorkQueued) {
  RegisterFakeGpuKernels();
  Scope root = Scope::NewRootScope();
  auto v = ops::Variable(root, {1.f});
  auto x = ops::Placeholder(root.WithDevice("/cpu:0"), DT_FLOAT);
  auto up = ops::AssignAdd(root, v, x);
  auto dev = std::make_shared<SyncCountingDevice>(0, 1 << 20);
  Session session(root, SessionOptions(), FakeGpuDevices(dev));
  ASSERT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(root)}, nullptr).ok());
  RunOptions queued;
  queued.wait_for_devices = false;
  for (float add : {2.f, 3.f, 4.f}) {
    ASSERT_TRUE(session.Run(queued, {{x, {add}}}, {}, {up.operation}, nullptr, nullptr).ok());
  }
  EXPECT_EQ(dev->syncs.load(), 1);  // the initializer's
  EXPECT_EQ(dev->queued_ends.load(), 3);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run(queued, {}, {v}, {}, &out, nullptr).ok());  // fetches: waits
  ExpectTensorNear(out[0], DT_FLOAT, {1}, {10}, 0);
  EXPECT_EQ(dev->syncs.load(), 2);
  RunOptions traced = queued;
  traced.trace_level = RunOptions::FULL_TRACE;
  RunMetadata meta;
  ASSERT_TRUE(session.Run(traced, {{x, {1.f}}}, {}, {up.operation}, nullptr, &meta).ok());
  EXPECT_EQ(dev->syncs.load(), 3);
  EXPECT_EQ(dev->queued_ends.load(), 3);
  // Through a callable, as Keras runs its steps; an error of queued work is a Status.
  Session::CallableHandle h;
  ASSERT_TRUE(session.MakeCallable({{x}, {}, {up.operation}}, &h).ok());
  Tensor five(DT_FLOAT, TensorShape({1}));
  five.base<float>()[0] = 5.f;
  ASSERT_TRUE(session.RunCallable(h, {five}, &out, queued, nullptr).ok());
  EXPECT_EQ(dev->queued_ends.load(), 4);
  dev->fail = true;
  absl::Status s = session.RunCallable(h, {five}, &out, queued, nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_NE(std::string(s.message()).find("FAKE_GPU:0: asynchronous kernel failure"),
            std::string::npos)
      << s;
  EXPECT_EQ(dev->syncs.load(), 3);
  // RILL_WAIT_FOR_DEVICES=1, read by a Session when it is made, makes every Run wait.
  setenv("RILL_WAIT_FOR_DEVICES", "1", 1);
  Session waiting(root, SessionOptions(), FakeGpuDevices(dev));
  unsetenv("RILL_WAIT_FOR_DEVICES");
  dev->fail = false;
  ASSERT_TRUE(waiting.Run({}, {}, {ops::GlobalVariablesInitializer(root)}, nullptr).ok());
  ASSERT_TRUE(waiting.Run(queued, {{x, {1.f}}}, {}, {up.operation}, nullptr, nullptr).ok());
  EXPECT_EQ(dev->syncs.load(), 5);
  EXPECT_EQ(dev->queued_ends.load(), 5);
}

}  // namespace placer_test
}  // namespace
}  // namespace rill::testing
