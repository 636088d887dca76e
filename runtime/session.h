// Session: runs the graph of a Scope. TensorFlow's ClientSession shape:
//   Session session(scope);
//   session.Run({{x, {1.f, 2.f}}}, {y}, &outputs);
// Each (feeds, fetches, targets) signature gets an execution plan on its first Run;
// later Runs with that signature reuse it. Variables live in the Session and keep their
// values across runs. Run may be called from several threads at once.
#pragma once

#include <initializer_list>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "rill/ops/scope.h"
#include "rill/runtime/device.h"
#include "rill/runtime/graph_view.h"
#include "rill/runtime/memory_plan.h"
#include "rill/runtime/session_config.h"
#include "rill/runtime/step_graph_stats.h"
#include "rill/runtime/step_stats.h"

namespace rill {

class GraphDef;
namespace thread {
struct ThreadPoolOptions;
}  // namespace thread

struct SessionOptions {
  // Threads for expensive kernels, besides the one that calls Run; 0: one per core this
  // process may run on (its affinity mask: taskset, cpuset, mpirun's binding) but one (the
  // caller's), at least one. At most kMaxPoolThreads (1024).
  int inter_op_threads = 0;
  // Print "name (Op): device" for each node when it is placed.
  bool log_device_placement = false;
  // Fall back to another device when a requested one cannot run a node.
  bool allow_soft_placement = true;
  // Let float32 MatMul on GPUs use TF32 tensor cores (faster, about 10 mantissa bits).
  // Off by default, as CPU-GPU parity needs full float32.
  bool allow_tf32 = false;
  // Run the graph optimizer on each plan (constant folding, common subexpressions,
  // arithmetic simplification, fusions; see docs/design.md). Off: the plan runs the
  // pruned graph as written, to compare or to see every node in a trace.
  bool optimize_graph = true;
  // Lay out each plan's values in one arena per device, planned from the first run with
  // each set of feed shapes (docs/design.md, pass 6), so that later runs allocate nothing.
  // Off: every value is allocated when made, as TensorFlow does.
  bool plan_memory = true;
  // Record each plan's GPU work once per memory layout as a CUDA graph and replay it in
  // later runs (as ONNX Runtime's enable_cuda_graph; docs/design.md). A plan qualifies
  // when all of it but the feeds' uploads and fetches' downloads runs on one GPU, with no
  // collective, and its GPU kernels read host values only to check and upload them (random
  // ops replay, drawing new numbers); others run as usual (GetStepGraphStats says why).
  // Needs plan_memory. Off by default for a Session, on for a Keras model
  // (keras::ModelOptions); the environment's RILL_CUDA_GRAPHS=1 turns it on for every
  // Session of the process.
  bool cuda_graphs = false;
  // TensorFlow's address of a remote runtime. rill runs in this process: anything but ""
  // makes a Session that returns InvalidArgument from every call.
  std::string target;
  // TensorFlow's ConfigProto (runtime/session_config.h says what each field does here):
  // where it sets placement or threads it wins over the fields above.
  ConfigProto config = {};
};

// What a callable feeds, fetches and runs: as Outputs and Operations, or by name as
// TensorFlow's CallableOptions proto takes them (add_feed("a"), add_fetch("c:0"),
// add_target("train")), resolved against the Session's graph by MakeCallable. One list
// is given one way: Outputs and names together in it are InvalidArgument.
struct CallableOptions {
  std::vector<Output> feed;
  std::vector<Output> fetch;
  std::vector<Operation> target;
  // (Initialized here so that CallableOptions{{x}, {y}, {}} still sets every field.)
  std::vector<std::string> feed_names = {};    // "node" or "node:index"
  std::vector<std::string> fetch_names = {};   // "node" or "node:index"
  std::vector<std::string> target_names = {};  // node names

  void add_feed(std::string name) { feed_names.push_back(std::move(name)); }
  void add_fetch(std::string name) { fetch_names.push_back(std::move(name)); }
  void add_target(std::string name) { target_names.push_back(std::move(name)); }
};

// One device of a Session (TensorFlow's DeviceAttributes, the fields rill has).
struct DeviceAttributes {
  std::string name_;         // "/job:localhost/replica:0/task:0/device:GPU:0"
  std::string device_type_;  // "CPU" or "GPU"
  const std::string& name() const { return name_; }
  const std::string& device_type() const { return device_type_; }
};

class Session {
 public:
  using FeedType = std::unordered_map<Output, Input::Initializer, OutputHash>;
  using CallableHandle = int64_t;

  // The checked way to make a Session (TensorFlow's NewSession): InvalidArgument for bad
  // options, ResourceExhausted when its threads cannot be started.
  static absl::StatusOr<std::unique_ptr<Session>> Create(const Scope& scope,
                                                         const SessionOptions& options = {});
  // A Session that could not be made returns that status from every call (see status()).
  explicit Session(const Scope& scope);
  Session(const Scope& scope, const SessionOptions& options);
  // With an explicit set of devices instead of those of this process (tests, embedding).
  Session(const Scope& scope, const SessionOptions& options, DeviceSet devices);
  // Waits for calls still running in other threads (Run, RunCallable, ...) to return.
  ~Session();
  // OK, or why this Session could not be made.
  const absl::Status& status() const;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  absl::Status Run(const std::vector<Output>& fetch_outputs, std::vector<Tensor>* outputs) const;
  absl::Status Run(const FeedType& inputs, const std::vector<Output>& fetch_outputs,
                   std::vector<Tensor>* outputs) const;
  absl::Status Run(const FeedType& inputs, const std::vector<Output>& fetch_outputs,
                   const std::vector<Operation>& run_outputs, std::vector<Tensor>* outputs) const;
  // TensorFlow's by-name form (tensorflow::Session::Run), for a graph loaded from a file:
  // feeds and fetches as "node:index" or "node" (its output 0), targets as node names. A
  // name the graph does not have is NotFound; a tensor fed twice is InvalidArgument.
  absl::Status Run(const std::vector<std::pair<std::string, Tensor>>& inputs,
                   const std::vector<std::string>& output_tensor_names,
                   const std::vector<std::string>& target_node_names,
                   std::vector<Tensor>* outputs) const;
  // The same for braced lists: Run({}, {"y", "z"}, {}, &out) would otherwise be ambiguous
  // (two strings also make a vector<Output> by its iterator-pair constructor).
  absl::Status Run(std::initializer_list<std::pair<std::string, Tensor>> inputs,
                   std::initializer_list<std::string> output_tensor_names,
                   std::initializer_list<std::string> target_node_names,
                   std::vector<Tensor>* outputs) const {
    return Run(std::vector<std::pair<std::string, Tensor>>(inputs),
               std::vector<std::string>(output_tensor_names),
               std::vector<std::string>(target_node_names), outputs);
  }
  // With run_options.trace_level = FULL_TRACE, fills run_metadata->step_stats (what ran
  // where and when; see runtime/step_stats.h and runtime/io/trace.h).
  absl::Status Run(const RunOptions& run_options, const FeedType& inputs,
                   const std::vector<Output>& fetch_outputs,
                   const std::vector<Operation>& run_outputs, std::vector<Tensor>* outputs,
                   RunMetadata* run_metadata) const;

  // A handle that runs one fixed signature with no lookup: feeds in the order given.
  absl::Status MakeCallable(const CallableOptions& options, CallableHandle* out_handle);
  absl::Status RunCallable(CallableHandle handle, const std::vector<Tensor>& feed_tensors,
                           std::vector<Tensor>* fetch_tensors) const;
  absl::Status RunCallable(CallableHandle handle, const std::vector<Tensor>& feed_tensors,
                           std::vector<Tensor>* fetch_tensors, const RunOptions& run_options,
                           RunMetadata* run_metadata) const;
  // TensorFlow's form, with default RunOptions (no trace: run_metadata may be null).
  absl::Status RunCallable(CallableHandle handle, const std::vector<Tensor>& feed_tensors,
                           std::vector<Tensor>* fetch_tensors, RunMetadata* run_metadata) const;
  // On the caller's pools (TensorFlow's form): the run executes on one thread of
  // pools.inter_op_threadpool while this thread waits, and hands no kernel elsewhere.
  // intra_op_threadpool is not used (rill's kernels do not split their work).
  absl::Status RunCallable(CallableHandle handle, const std::vector<Tensor>& feed_tensors,
                           std::vector<Tensor>* fetch_tensors, RunMetadata* run_metadata,
                           const thread::ThreadPoolOptions& pools) const;
  absl::Status ReleaseCallable(CallableHandle handle);

  // TensorFlow's GraphDef calls (runtime/io/graph_def.h): Create loads a graph into a
  // Session that has none (NewSession's), Extend adds nodes of new names to it.
  absl::Status Create(const GraphDef& graph);
  absl::Status Extend(const GraphDef& graph);
  // Drops the cached plans and callables; every later call returns Cancelled. Calls
  // already running finish.
  absl::Status Close();
  // The scope whose graph this Session runs.
  Scope scope() const;

  // The device a node was placed on ("/job:localhost/replica:0/task:0/device:CPU:0") and
  // why, once a Run has placed it; NotFound before.
  absl::StatusOr<std::string> AssignedDevice(const Operation& op) const;
  absl::StatusOr<std::string> PlacementReason(const Operation& op) const;
  // Names of the devices this Session can use, highest priority first.
  std::vector<std::string> ListDevices() const;
  // The same as TensorFlow's Session::ListDevices gives them.
  absl::Status ListDevices(std::vector<DeviceAttributes>* response) const;
  // The graph as this Session runs it for one signature: the nodes it needs, the device
  // each was assigned, and the _Copy nodes between devices (placing nodes as a Run would).
  absl::StatusOr<GraphView> ViewPlan(const CallableOptions& signature) const;
  // How the static memory plan of a callable's plan lays out its values (runtime/
  // memory_plan.h), once a run has recorded their sizes; all zero before.
  absl::StatusOr<MemoryPlanStats> GetMemoryPlanStats(CallableHandle handle) const;
  // What graph mode (SessionOptions::cuda_graphs) made of a callable's runs: recordings,
  // replays, and why the plan is not replayed when it is not.
  absl::StatusOr<StepGraphStats> GetStepGraphStats(CallableHandle handle) const;
  // Number of cached execution plans (for tests and diagnostics).
  int num_cached_plans() const;
  // Calls (Run, RunCallable, MakeCallable, ViewPlan) now running in other threads.
  int calls_in_flight() const;

 public:
  struct Impl;  // opaque; public only so the implementation's helpers can name it

 private:
  std::unique_ptr<Impl> impl_;
};

using ClientSession = Session;

}  // namespace rill
