// Which Keras training steps placed on a GPU can be replayed as CUDA graphs, decided on any
// machine: the step's plan is made for a pretend GPU (the GPU kernels this build
// registers, memory that is host memory, nothing ever run on it) and the replay analysis
// (runtime/step_graph.cc) read back. A build without CUDA kernels has nothing to place.
#include <map>
#include <string>

#include "absl/strings/match.h"
#include "rill/ops/optimizers.h"
#include "rill/runtime/keras/layers.h"
#include "rill/runtime/keras/model.h"
#include "runtime/fake_device.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace keras_replay_test {

// A GPU to plan for: kernels are made for it, never run.
class PretendGpu final : public Device {
 public:
  PretendGpu()
      : Device(DEVICE_GPU, 0, nullptr),
        memory_("pretend_gpu", std::make_unique<FakeMemory>(size_t{1} << 30)) {}
  Allocator* allocator() const override { return const_cast<CachingAllocator*>(&memory_); }
  bool CanCapture() const override { return true; }

 private:
  CachingAllocator memory_;
};

bool HaveGpuKernels() {
  for (const KernelDef& d : KernelRegistry::Global()->DefsFor("Conv2D")) {
    if (d.device_type == DEVICE_GPU) return true;
  }
  return false;
}

// Keras's training step (model.cc): x and y fed, the optimizer's train op and the
// running sums' AssignAdds run. Found by their names in the built model's graph.
CallableOptions TrainStep(keras::Sequential& model) {
  CallableOptions sig;
  const Graph& g = *model.scope().graph();
  Output y;
  for (int id = 0; id < g.num_nodes(); ++id) {
    Node* n = g.node(id);
    if (n == nullptr) continue;
    if (n->name() == "y") y = Output(n, 0);
    const bool train = n->type_string() == "NoOp" && absl::EndsWith(n->name(), "/train");
    if (train || n->type_string() == "AssignAdd") sig.target.emplace_back(n);
  }
  sig.feed = {model.input(), y};
  return sig;
}

struct Planned {
  StepGraphStats stats;
  std::map<std::string, std::string> device_of;  // plan node name -> device
};

// Plans the callable `sig` of `scope`'s graph for the pretend GPU and this process's CPU.
Planned PlanForAGpu(const Scope& scope, const CallableOptions& sig) {
  DeviceSet devices;
  devices.Add(std::make_shared<PretendGpu>());
  for (const auto& c : CpuOnly().devices()) devices.Add(c);
  SessionOptions o;
  o.cuda_graphs = true;
  Session session(scope, o, devices);
  Session::CallableHandle h;
  absl::Status st = session.MakeCallable(sig, &h);
  EXPECT_TRUE(st.ok()) << st;
  Planned p;
  if (!st.ok()) return p;
  p.stats = *session.GetStepGraphStats(h);
  auto plan = session.ViewPlan(sig);
  EXPECT_TRUE(plan.ok()) << plan.status();
  for (const auto& n : plan.ok() ? plan->nodes : decltype(plan->nodes){}) {
    p.device_of[n.name] = n.device;
  }
  return p;
}

// Builds `model` by fitting it on the CPU (labels uint8, as the MNIST loaders give them),
// then plans its training step for the pretend GPU and this process's CPU.
Planned PlanOnAGpu(keras::Sequential& model, const std::vector<int64_t>& example) {
  std::vector<int64_t> dims = {8};
  dims.insert(dims.end(), example.begin(), example.end());
  const Tensor x = RandomTensor(DT_FLOAT, TensorShape(dims), 0, 1, 1);
  std::vector<double> ys(8);
  for (int i = 0; i < 8; ++i) ys[i] = i % 10;
  keras::FitOptions fit;
  fit.batch_size = 4;
  fit.verbose = 0;
  auto history = model.Fit(x, FromDoubles(DT_UINT8, {8}, ys), fit);
  EXPECT_TRUE(history.ok()) << history.status();
  return PlanForAGpu(model.scope(), TrainStep(model));
}

bool OnTheCpu(const std::string& device) { return absl::EndsWith(device, "CPU:0"); }

TEST(KerasReplay, ACnnStepOnAGpuQualifiesItsLabelsComputedOnTheHost) {
  if (!HaveGpuKernels()) GTEST_SKIP() << "this build registers no GPU kernels";
  for (const char* device : {"", "/GPU:0"}) {  // the placer's choice, and requested
    SCOPED_TRACE(device);
    keras::ModelOptions mo;
    mo.device = device;
    keras::Sequential model(mo);
    model.Add(std::make_shared<keras::Conv2D>(4, 5, "relu", "same"))
        .Add(std::make_shared<keras::MaxPool2D>(2))
        .Add(std::make_shared<keras::Flatten>())
        .Add(std::make_shared<keras::Dense>(16, "relu"))
        .Add(std::make_shared<keras::Dropout>(0.5))
        .Add(std::make_shared<keras::Dense>(10, "softmax"));
    ASSERT_TRUE(model
                    .Compile(std::make_shared<ops::AdamOptimizer>(0.001),
                             "sparse_categorical_crossentropy", {"accuracy"})
                    .ok());
    Planned p = PlanOnAGpu(model, {8, 8, 1});
    EXPECT_TRUE(p.stats.enabled);
    EXPECT_EQ(p.stats.why_not, "");
    // The labels' Cast and Reshape on the host, read there by the loss on the GPU.
    EXPECT_TRUE(OnTheCpu(p.device_of["loss/Cast"])) << p.device_of["loss/Cast"];
    EXPECT_TRUE(OnTheCpu(p.device_of["loss/Reshape"])) << p.device_of["loss/Reshape"];
    EXPECT_FALSE(OnTheCpu(p.device_of["loss/SparseSoftmaxCrossEntropyWithLogits"]));
  }
}

// The CIFAR MLP's step (smaller): plain SGD, sparse labels.
TEST(KerasReplay, AnMlpStepOnAGpuQualifies) {
  if (!HaveGpuKernels()) GTEST_SKIP() << "this build registers no GPU kernels";
  keras::ModelOptions mo;
  mo.device = "/GPU:0";
  keras::Sequential model(mo);
  model.Add(std::make_shared<keras::Dense>(32, "relu"))
      .Add(std::make_shared<keras::Dense>(16, "relu"))
      .Add(std::make_shared<keras::Dense>(10, "softmax"));
  ASSERT_TRUE(model.Compile("sgd", "sparse_categorical_crossentropy", {"accuracy"}).ok());
  Planned p = PlanOnAGpu(model, {24});
  EXPECT_EQ(p.stats.why_not, "");
}

// Graph mode is Keras's default: a model on the CPU fits as usual, its step's stats say
// why nothing was recorded; with it off they say it is off.
TEST(KerasReplay, GraphModeIsOnByDefaultAndSaysWhyACpuStepIsNotRecorded) {
  for (bool off : {false, true}) {
    keras::ModelOptions mo;
    mo.device = "/CPU:0";
    if (off) mo.session.cuda_graphs = false;
    keras::Sequential model(mo);
    model.Add(std::make_shared<keras::Dense>(8, "relu"))
        .Add(std::make_shared<keras::Dense>(3, "softmax"));
    ASSERT_TRUE(model.Compile("sgd", "sparse_categorical_crossentropy", {"accuracy"}).ok());
    std::vector<double> ys(12);
    for (int i = 0; i < 12; ++i) ys[i] = i % 3;
    keras::FitOptions fit;
    fit.batch_size = 4;
    fit.verbose = 0;
    auto h =
        model.Fit(RandomTensor(DT_FLOAT, {12, 5}, -1, 1, 3), FromDoubles(DT_INT32, {12}, ys), fit);
    ASSERT_TRUE(h.ok()) << h.status();
    absl::StatusOr<StepGraphStats> st = model.FitStepGraphStats();
    ASSERT_TRUE(st.ok()) << st.status();
    EXPECT_EQ(st->enabled, !off);
    EXPECT_EQ(st->captures, 0);
    if (off) {
      EXPECT_EQ(st->why_not, "");
    } else {
      EXPECT_TRUE(absl::StrContains(st->why_not, "no node runs on a device that can record"))
          << st->why_not;
    }
  }
}

// Not Keras: an embedding step written with ops, everything requested on the GPU. The
// gather's gradient slices the table's shape for UnsortedSegmentSum's segment count: the
// scope's request put that integer work on the GPU, between a host Shape and a host read,
// and the step went to the host and back (seen on an H200, 2026-11-28); placer pass 6 now
// moves it to the host as TensorFlow's pin-to-host does.
TEST(KerasReplay, AnEmbeddingStepRequestedOnTheGpuQualifies) {
  if (!HaveGpuKernels()) GTEST_SKIP() << "this build registers no GPU kernels";
  Scope s = Scope::NewRootScope().WithDevice("/GPU:0");
  auto ids = ops::Placeholder(s.WithOpName("ids"), DT_INT32, ops::Placeholder::Shape({-1}));
  auto labels = ops::Placeholder(s, DT_INT32, ops::Placeholder::Shape({-1}));
  auto table = ops::Variable(s, RandomTensor(DT_FLOAT, {20, 8}, -0.5, 0.5, 1));
  auto w = ops::Variable(s, RandomTensor(DT_FLOAT, {8, 5}, -0.5, 0.5, 2));
  Output h = ops::GatherV2(s.WithOpName("gather"), table, ids, ops::Const(s, 0));
  auto xent = ops::SparseSoftmaxCrossEntropyWithLogits(s, ops::MatMul(s, h, w), labels);
  auto loss = ops::Mean(s, xent.loss, 0);
  Operation train = ops::GradientDescentOptimizer(0.5).Minimize(s, loss);
  ASSERT_TRUE(s.ok()) << s.status();
  Planned p = PlanForAGpu(s, {{ids, labels}, {loss}, {train}});
  EXPECT_EQ(p.stats.why_not, "");
  EXPECT_FALSE(OnTheCpu(p.device_of["gather"]));
  bool sum_on_gpu = false;
  for (const auto& [name, device] : p.device_of) {
    if (absl::StrContains(name, "UnsortedSegmentSum")) sum_on_gpu = !OnTheCpu(device);
  }
  EXPECT_TRUE(sum_on_gpu);
}

}  // namespace keras_replay_test
}  // namespace
}  // namespace rill::testing
