// Step timelines: traced runs record every node with device, times, thread and output
// bytes; the Chrome trace is valid JSON whose slices nest per track; the summary ranks ops;
// untraced runs record nothing.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>

#include "fake_device.h"
#include "json_util.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace trace_test {

using namespace ops;  // NOLINT

// The fake accelerator runs kernels synchronously, so its "device time" is the host time
// between the timer's start and stop: enough to exercise the stream track of the trace.
class TimedFakeGpu : public FakeGpuDevice {
 public:
  using FakeGpuDevice::FakeGpuDevice;
  std::unique_ptr<DeviceTimer> StartTimer() override {
    struct Timer : DeviceTimer {
      std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now(), stop;
      void Stop() override { stop = std::chrono::steady_clock::now(); }
      absl::StatusOr<int64_t> ElapsedNs() override {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count();
      }
    };
    return std::make_unique<Timer>();
  }
};

struct Mlp {
  Scope root = Scope::NewRootScope();
  Output x, y;
};

Mlp BuildMlp() {
  Mlp m;
  m.x = Placeholder(m.root.WithOpName("x"), DT_FLOAT, Placeholder::Shape({-1, 64}));
  Output h = m.x;
  for (int i = 0; i < 3; ++i) {
    Scope s = m.root.NewSubScope("layer");
    h = Relu(s, MatMul(s, h, Const(s, RandomTensor(DT_FLOAT, {64, 64}, -0.2, 0.2, i))));
  }
  m.y = Sum(m.root.WithOpName("y"), h, {1});
  return m;
}

TEST(Trace, FullTraceRecordsEveryNode) {
  Mlp m = BuildMlp();
  Session session(m.root, SessionOptions(), CpuOnly());
  RunOptions options;
  options.trace_level = RunOptions::FULL_TRACE;
  RunMetadata meta;
  std::vector<Tensor> out;
  ASSERT_TRUE(
      session
          .Run(options, {{m.x, RandomTensor(DT_FLOAT, {32, 64}, -1, 1, 9)}}, {m.y}, {}, &out, &meta)
          .ok());
  const StepStats& st = meta.step_stats;
  // 3 x (MatMul, Relu) and Sum: the fed x does not run, and the constants (weights,
  // Sum's axis) are in place before the run starts (ExecutionPlan::constants).
  ASSERT_EQ(st.nodes.size(), 7u);
  EXPECT_GT(st.start_unix_us, 1600000000LL * 1000000);
  std::map<std::string, const NodeExecStats*> by_name;
  for (const NodeExecStats& n : st.nodes) {
    by_name[n.node_name] = &n;
    EXPECT_EQ(n.device, "/job:localhost/replica:0/task:0/device:CPU:0");
    EXPECT_LE(0, n.start_ns);
    EXPECT_LE(n.start_ns, n.end_ns);
    EXPECT_LE(n.end_ns, st.wall_ns);
    EXPECT_EQ(n.device_ns, -1);
    EXPECT_FALSE(n.is_copy);
  }
  const NodeExecStats* mm = by_name.at("layer/MatMul");
  EXPECT_EQ(mm->op, "MatMul");
  EXPECT_EQ(mm->output_bytes, 32 * 64 * 4);
  EXPECT_EQ(mm->output_shapes, std::vector<std::string>{"[32,64]"});
  EXPECT_EQ(by_name.at("y")->output_bytes, 32 * 4);
  // Dependencies are respected in time: a consumer starts after its producer ends.
  EXPECT_LE(by_name.at("layer/MatMul")->end_ns, by_name.at("layer/Relu")->start_ns);
  EXPECT_LE(by_name.at("layer_2/Relu")->end_ns, by_name.at("y")->start_ns);
  // Sorted by start.
  EXPECT_TRUE(std::is_sorted(st.nodes.begin(), st.nodes.end(),
                             [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; }));
}

TEST(Trace, UntracedRunsRecordNothing) {
  Mlp m = BuildMlp();
  Session session(m.root, SessionOptions(), CpuOnly());
  RunMetadata meta;
  std::vector<Tensor> out;
  ASSERT_TRUE(session
                  .Run(RunOptions(), {{m.x, RandomTensor(DT_FLOAT, {2, 64}, -1, 1, 9)}}, {m.y}, {},
                       &out, &meta)
                  .ok());
  EXPECT_TRUE(meta.step_stats.nodes.empty());
  ASSERT_EQ(out.size(), 1u);
}

// Every "X" slice on one (pid, tid) track either follows the previous one or lies inside
// it: slices nest, as the trace viewers require.
void ExpectWellFormedTrace(const Json& trace, int* slices, int* kernels) {
  ASSERT_EQ(trace.kind, Json::kObject);
  ASSERT_TRUE(trace.Has("traceEvents"));
  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> tracks;
  std::map<int, std::string> process_names;
  *slices = *kernels = 0;
  for (const Json& e : trace["traceEvents"].array) {
    ASSERT_EQ(e.kind, Json::kObject);
    const std::string ph = e["ph"].str;
    const int pid = static_cast<int>(e["pid"].number);
    const int tid = static_cast<int>(e["tid"].number);
    if (ph == "M") {
      ASSERT_TRUE(e["args"].Has("name"));
      if (e["name"].str == "process_name") process_names[pid] = e["args"]["name"].str;
      continue;
    }
    ASSERT_EQ(ph, "X");
    ASSERT_EQ(e["ts"].kind, Json::kNumber);
    ASSERT_GE(e["dur"].number, 0);
    ASSERT_TRUE(e["args"].Has("op"));
    ASSERT_TRUE(e["args"].Has("output_bytes"));
    ++*slices;
    *kernels += e["cat"].str == "kernel";
    tracks[{pid, tid}].emplace_back(e["ts"].number, e["ts"].number + e["dur"].number);
  }
  for (auto& [track, spans] : tracks) {
    ASSERT_TRUE(process_names.count(track.first)) << "pid " << track.first << " has no name";
    std::sort(spans.begin(), spans.end());
    std::vector<double> open_ends;
    for (const auto& [b, e] : spans) {
      while (!open_ends.empty() && open_ends.back() <= b + 1e-3) open_ends.pop_back();
      if (!open_ends.empty()) {
        EXPECT_LE(e, open_ends.back() + 1e-3) << "overlapping slices";
      }
      open_ends.push_back(e);
    }
  }
}

TEST(Trace, ChromeTraceIsWellFormedWithCopiesAndDeviceTimes) {
  RegisterFakeGpuKernels();
  Scope root = Scope::NewRootScope();
  auto x = Placeholder(root.WithOpName("x"), DT_FLOAT, Placeholder::Shape({8, 8}));
  auto m = MatMul(root.WithOpName("m"), x, x);  // on the fake GPU
  auto d = Sub(root.WithOpName("d"), m, x);     // no fake-GPU kernel: on the CPU
  auto gpu = std::make_shared<TimedFakeGpu>(0, 1 << 20);
  SessionOptions opts;
  opts.inter_op_threads = 2;
  Session session(root, opts, FakeGpuDevices(gpu));
  RunOptions traced;
  traced.trace_level = RunOptions::FULL_TRACE;
  RunMetadata meta;
  std::vector<Tensor> out;
  ASSERT_TRUE(
      session.Run(traced, {{x, RandomTensor(DT_FLOAT, {8, 8}, -1, 1, 2)}}, {d}, {}, &out, &meta)
          .ok());
  int copies = 0, timed = 0;
  for (const NodeExecStats& n : meta.step_stats.nodes) {
    copies += n.is_copy;
    if (n.device_ns >= 0) {
      ++timed;
      EXPECT_NE(n.device.find("FAKE_GPU"), std::string::npos);
    }
  }
  EXPECT_GE(copies, 2);  // x to the device, m back
  EXPECT_GE(timed, 2);   // m and the copy onto the device ran there

  const std::string path = ::testing::TempDir() + "/step.json";
  ASSERT_TRUE(WriteChromeTrace(meta.step_stats, path).ok());
  std::ifstream f(path);
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  auto json = ParseJson(text);
  ASSERT_TRUE(json.ok()) << json.status() << "\n" << text;
  int slices = 0, kernels = 0;
  ExpectWellFormedTrace(*json, &slices, &kernels);
  EXPECT_EQ(slices, static_cast<int>(meta.step_stats.nodes.size()) + timed);
  EXPECT_EQ(kernels, timed);
  EXPECT_NE(text.find("\"cat\":\"copy\""), std::string::npos);
  EXPECT_NE(text.find("device: stream"), std::string::npos);

  std::string summary = SummarizeStepStats(meta.step_stats, 3);
  EXPECT_NE(summary.find("device:CPU:0"), std::string::npos) << summary;
  EXPECT_NE(summary.find("device:FAKE_GPU:0"), std::string::npos) << summary;
  EXPECT_NE(summary.find("MatMul"), std::string::npos) << summary;
  EXPECT_NE(summary.find("_Copy"), std::string::npos) << summary;
}

TEST(Trace, TracedCallableAndKerasStep) {
  keras::Sequential model;
  model.Add(std::make_shared<keras::Dense>(8, "relu")).Add(std::make_shared<keras::Dense>(2));
  ASSERT_TRUE(
      model.Compile("sgd", "sparse_categorical_crossentropy", {"accuracy"}, {.from_logits = true})
          .ok());
  Tensor x = RandomTensor(DT_FLOAT, {16, 4}, -1, 1, 3);
  Tensor y = FromDoubles(DT_INT64, {16}, std::vector<double>(16, 1.0));
  RunMetadata meta;
  ASSERT_TRUE(model.TraceTrainStep(x, y, &meta).ok());
  bool saw_update = false, saw_grad = false;
  for (const NodeExecStats& n : meta.step_stats.nodes) {
    saw_update |= n.op == "_MatMulApplyGradientDescent" || n.op == "ApplyGradientDescent";
    saw_grad |= n.op == "_BiasActivationGrad";  // Dense(relu): fused
  }
  EXPECT_TRUE(saw_update);
  EXPECT_TRUE(saw_grad);
  int slices = 0, kernels = 0;
  auto json = ParseJson(ToChromeTrace(meta.step_stats));
  ASSERT_TRUE(json.ok());
  ExpectWellFormedTrace(*json, &slices, &kernels);
  // A slice per node, and one more for the device time of each node that ran on a GPU.
  int on_device = 0;
  for (const NodeExecStats& n : meta.step_stats.nodes) on_device += n.device_ns >= 0;
  EXPECT_EQ(kernels, on_device);
  EXPECT_EQ(slices - kernels, static_cast<int>(meta.step_stats.nodes.size()));
}

TEST(JsonReader, RejectsWhatIsNotJson) {
  EXPECT_TRUE(ParseJson("{\"a\":[1,-2.5e3,true,null,\"x\\u0041\"]}").ok());
  for (const char* bad :
       {"", "{", "{\"a\":1,}", "[1 2]", "{\"a\":1}{", "\"\x01\"", "{a:1}", "{\"a\":1,\"a\":2}"}) {
    EXPECT_FALSE(ParseJson(bad).ok()) << bad;
  }
}

}  // namespace trace_test
}  // namespace
}  // namespace rill::testing
