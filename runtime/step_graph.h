// Replaying a step as a device graph (SessionOptions::cuda_graphs, as ONNX Runtime's
// enable_cuda_graph): the plan's GPU work is recorded once per run state and memory layout,
// then each later run copies its feeds in, launches the recording and copies the fetches
// out. What qualifies, and why, is decided once per plan (AnalyzeForReplay); the run itself
// is the executor's (runtime/executor_graph.cc). docs/design.md draws it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rill/runtime/device.h"
#include "rill/runtime/plan.h"
#include "rill/runtime/step_graph_stats.h"

namespace rill {

class Arena;
struct MemoryLayout;

// A plan split for replay: nodes that run before the recorded part (host nodes and the
// feeds' uploads), the recorded part (every other node: on one device that can record),
// and nodes after it (downloads of fetched values, host nodes reading them). Each part in
// an order that respects every edge.
struct ReplayPlan {
  Device* device = nullptr;  // null: the plan does not qualify, `why_not` says why
  std::string why_not;
  std::vector<int> before, body, after;  // plan node ids
  std::vector<int> in_slots;             // device values made before the body and read in it
  std::vector<int> out_slots;            // values the body makes and nodes after it read
  // Host values made before the body (fed, or by host nodes) that body kernels read
  // through a checked upload: checked and uploaded again before each replay.
  std::vector<int> checked_host_slots;
  std::vector<Var*> vars;  // variables the body reads or updates
};

// Whether and how `plan` can be replayed. It qualifies when every node is on the host or
// on one device that can record; the host nodes all come before the device's first node
// or after its last (no value goes to the host and back inside the step), except those
// that read only constants and host values the body made (shapes), which are recorded; no node is
// async (collectives) or stateful other than by updating variables or drawing through a replay
// counter; the device nodes read host values only from constants or through a checked
// upload (OpKernel::UploadsCheckedHostInput), and variables only from their own device;
// nothing the body makes is fetched directly.
ReplayPlan AnalyzeForReplay(const ExecutionPlan& plan);

// A host value a kernel of the body reads on the device through
// OpKernelContext::UploadCheckedHostInput: before every launch the executor checks the
// run's value by the kernel's rule and copies it into `buffer`.
struct RecordedHostInput {
  const PlanNode* node;
  int input;              // of `node`; -1: a value the kernel computed, fixed for the recording
  HostInputCheck check;   // null for a computed value
  Tensor buffer;          // on the recording device, in the recording's pool
  Tensor recorded_value;  // the recording run's value, until it is copied
};

// One recorded step: per run state and memory layout. It keeps the layout's arena (the
// recording writes there), the buffers the feeds are copied into before each launch and
// the fetched values are copied into at its end, and the variables' buffers as recorded:
// a variable given a new buffer since (Assign of another shape, a restore) means the
// recording is stale. While it is recorded, it notes the body's checked host inputs.
struct StepGraph final : HostInputRecorder {
  StepGraph() = default;
  StepGraph(const StepGraph&) = delete;
  StepGraph& operator=(const StepGraph&) = delete;
  ~StepGraph() override;

  // While recording: `recording_node` (set before each kernel runs) asks for a buffer.
  absl::StatusOr<Tensor> RecordHostInput(int input, const Tensor& host,
                                         HostInputCheck check) override;
  absl::StatusOr<Tensor> RecordFixedHostValue(const Tensor& host) override;

  // A buffer of the recording's pool for `host`, noted with the kernel being recorded.
  absl::StatusOr<Tensor> Keep(int input, const Tensor& host, HostInputCheck check);

  // Whether the variables still have the buffers the recording uses.
  bool VariablesUnchanged(const ReplayPlan& rp) const;
  // Notes the variables' buffers as they are now.
  void NoteVariables(const ReplayPlan& rp);

  Arena* arena = nullptr;       // one reference
  std::vector<Tensor> inputs;   // per ReplayPlan::in_slots
  std::vector<Tensor> outputs;  // per ReplayPlan::out_slots (in the graph's pool)
  std::vector<RecordedHostInput> host_inputs;
  Device* device = nullptr;                  // the recording's
  const PlanNode* recording_node = nullptr;  // the kernel being recorded
  std::vector<const void*> var_data;
  std::vector<TensorShape> var_shapes;
  std::unique_ptr<DeviceGraph> graph;  // its destruction waits for its launches
};

}  // namespace rill
