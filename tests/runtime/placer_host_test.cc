// Placer pass 6: integer values computed from host values and read only on the host are
// computed on the host, against the fake accelerator (fake_device.h) with the label path
// of a sparse loss as a GPU build has it.
#include <cmath>

#include "fake_device.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace placer_host_test {

using ::testing::HasSubstr;

constexpr char kGpuName[] = "/job:localhost/replica:0/task:0/device:FAKE_GPU:0";
constexpr char kCpuName[] = "/job:localhost/replica:0/task:0/device:CPU:0";

// Cast computes on the accelerator; Reshape reads its shape there on the host, and the
// loss its labels (a GPU build's kernels read them so, to check them).
void RegisterLabelKernels() {
  static const bool once = [] {
    auto copy = [](const char* op, std::vector<int> host_inputs) {
      const std::vector<KernelDef> defs = KernelRegistry::Global()->DefsFor(op);
      for (KernelDef d : defs) {
        if (d.device_type != DEVICE_CPU) continue;
        d.device_type = kFakeGpu;
        d.host_memory_inputs = host_inputs;
        KernelRegistry::Global()->Register(std::move(d));
      }
    };
    copy("Cast", {});
    copy("Reshape", {1});
    copy("SparseSoftmaxCrossEntropyWithLogits", {1});
    return true;
  }();
  (void)once;
}

class PlacerHostTest : public ::testing::Test {
 protected:
  void SetUp() override {
    RegisterFakeGpuKernels();
    RegisterLabelKernels();
  }
  std::unique_ptr<Session> MakeSession(const Scope& root) {
    gpu_ = std::make_shared<FakeGpuDevice>(0, size_t{1} << 30);
    SessionOptions o;
    o.optimize_graph = false;  // the copies counted are the graph's as written
    return std::make_unique<Session>(root, o, FakeGpuDevices(gpu_));
  }
  std::string DeviceOf(const Session& s, const Operation& op) {
    auto d = s.AssignedDevice(op);
    return d.ok() ? *d : d.status().ToString();
  }
  std::shared_ptr<FakeGpuDevice> gpu_;
};

// Logits [[1, 2, 3], [0, 0, 0]] with labels [[2], [0]].
Session::FeedType Feeds(const Output& logits, const Output& labels) {
  return {{logits, FromDoubles(DT_FLOAT, TensorShape({2, 3}), {1, 2, 3, 0, 0, 0})},
          {labels, FromDoubles(DT_INT32, TensorShape({2, 1}), {2, 0})}};
}

// A sparse loss's label path: labels -> Cast to int64 -> Reshape to [-1] -> the loss.
struct LabelPath {
  explicit LabelPath(const Scope& root)
      : logits(ops::Placeholder(root.WithOpName("logits"), DT_FLOAT)),
        labels(ops::Placeholder(root.WithOpName("labels"), DT_INT32)),
        ids(ops::Cast(root.WithOpName("ids"), labels, DT_INT64)),
        flat_shape(ops::Const(root.WithOpName("flat_shape"), {-1})),
        flat(ops::Reshape(root.WithOpName("flat"), ids, flat_shape)),
        xent(root.WithOpName("xent"), logits, flat) {}
  Output logits, labels, ids, flat_shape, flat;
  ops::SparseSoftmaxCrossEntropyWithLogits xent;
};

void ExpectLosses(const Tensor& loss) {
  const double row0 = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0)) - 3.0;
  ExpectTensorNear(loss, DT_FLOAT, {2}, {row0, std::log(3.0)}, 1e-6);
}

TEST_F(PlacerHostTest, LabelsReadOnTheHostAreCastAndReshapedThere) {
  Scope root = Scope::NewRootScope();
  LabelPath p(root);
  auto session = MakeSession(root);
  std::vector<Tensor> out;
  RILL_ASSERT_OK(session->Run(Feeds(p.logits, p.labels), {p.xent.loss}, &out));
  ExpectLosses(out[0]);
  EXPECT_EQ(DeviceOf(*session, p.xent.operation), kGpuName);
  for (const Operation& op : {p.ids.op(), p.flat_shape.op(), p.flat.op()}) {
    EXPECT_EQ(DeviceOf(*session, op), kCpuName) << op.name();
    EXPECT_THAT(*session->PlacementReason(op), HasSubstr("pinned to the host")) << op.name();
  }
  // Only the logits go up and only the loss comes back: no label crosses.
  EXPECT_EQ(gpu_->to_device.load(), 1);
  EXPECT_EQ(gpu_->to_host.load(), 1);
}

// The float Cast reads the ids on the accelerator, so they are made there, and so is the
// Reshape of them; its shape constant is still read on the host only.
TEST_F(PlacerHostTest, AReaderOnTheDeviceKeepsTheValueOnTheDevice) {
  Scope root = Scope::NewRootScope();
  LabelPath p(root);
  auto as_float = ops::Cast(root.WithOpName("as_float"), p.ids, DT_FLOAT);
  auto doubled = ops::Mul(root.WithOpName("doubled"), as_float, 2.f);
  auto session = MakeSession(root);
  std::vector<Tensor> out;
  RILL_ASSERT_OK(session->Run(Feeds(p.logits, p.labels), {p.xent.loss, doubled}, &out));
  ExpectLosses(out[0]);
  ExpectTensorNear(out[1], DT_FLOAT, {2, 1}, {4, 0}, 0);
  for (const Operation& op : {p.ids.op(), p.flat.op(), as_float.operation}) {
    EXPECT_EQ(DeviceOf(*session, op), kGpuName) << op.name();
    EXPECT_THAT(*session->PlacementReason(op), HasSubstr("default")) << op.name();
  }
  EXPECT_EQ(DeviceOf(*session, p.flat_shape.op()), kCpuName);
}

// A request for the accelerator does not keep integer work there (TensorFlow's pin-to-host
// moves it too: a scope's request reaches the shape arithmetic of gradients); a value with
// no reader in the step (fetched only) stays where pass 4 put it, as does a value that is
// not an integer.
TEST_F(PlacerHostTest, RequestedIntegersMoveFetchedValuesAndFloatsStay) {
  Scope root = Scope::NewRootScope();
  auto logits = ops::Placeholder(root.WithOpName("logits"), DT_FLOAT);
  auto labels = ops::Placeholder(root.WithOpName("labels"), DT_INT32);
  auto ids = ops::Cast(root.WithOpName("ids").WithDevice("/device:FAKE_GPU:0"), labels, DT_INT64);
  auto flat = ops::Reshape(root.WithOpName("flat"), ids, {-1});
  ops::SparseSoftmaxCrossEntropyWithLogits xent(root.WithOpName("xent"), logits, flat);
  auto fetched = ops::Cast(root.WithOpName("fetched"), labels, DT_INT64);
  auto as_float = ops::Cast(root.WithOpName("as_float"), labels, DT_FLOAT);
  auto flat_float = ops::Reshape(root.WithOpName("flat_float"), as_float, {-1});
  auto session = MakeSession(root);
  std::vector<Tensor> out;
  RILL_ASSERT_OK(session->Run(Feeds(logits, labels), {xent.loss, fetched, flat_float}, &out));
  ExpectLosses(out[0]);
  ExpectTensorNear(out[1], DT_INT64, {2, 1}, {2, 0}, 0);
  ExpectTensorNear(out[2], DT_FLOAT, {2}, {2, 0}, 0);
  for (const Operation& op : {ids.operation, flat.operation}) {
    EXPECT_EQ(DeviceOf(*session, op), kCpuName) << op.name();
    EXPECT_THAT(*session->PlacementReason(op), HasSubstr("pinned to the host")) << op.name();
  }
  EXPECT_THAT(*session->PlacementReason(ids.operation),
              HasSubstr("(requested '/device:FAKE_GPU:0')"));
  EXPECT_EQ(DeviceOf(*session, fetched.operation), kGpuName);
  EXPECT_EQ(DeviceOf(*session, as_float.operation), kGpuName);
}

}  // namespace placer_host_test
}  // namespace
}  // namespace rill::testing
