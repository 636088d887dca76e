// Graph mode (SessionOptions::cuda_graphs): a run that qualifies runs the nodes before the
// recorded part, then either records the body (the first time for this run state and
// memory layout, or when a variable got a new buffer since) or replays it, then runs the
// nodes after it. Everything runs on the calling thread, in the split's order: a recording
// must see every kernel of the body enqueued by the one thread that records.
//
// The body reads the feeds' uploads from buffers of the recording's own (each replay
// copies the run's uploads there first) and leaves the values read after it in buffers of
// its own (copies recorded at its end), so a replay needs no node of the body to run. The
// arena's addresses are fixed for the layout; the recording keeps the arena alive.
#include <algorithm>
#include <utility>

#include "rill/runtime/executor_state.h"

namespace rill {
namespace {

// Runs `ids` in order on the calling thread; false once a node has failed.
bool RunInOrder(Executor::State* s, const std::vector<int>& ids) {
  static const std::shared_ptr<Executor::State> kNoOwner;  // no async node qualifies
  for (int id : ids) RunNode(kNoOwner, s, s->plan.nodes[id]);
  return !s->failed.load(std::memory_order_acquire);
}

StepGraph* GraphOf(Executor::State* s) {
  for (const auto& g : s->graphs) {
    if (g->arena == s->arena) return g.get();
  }
  return nullptr;
}

void DropGraph(Executor::State* s, StepGraph* g) {
  s->graphs.erase(std::find_if(s->graphs.begin(), s->graphs.end(),
                               [g](const auto& p) { return p.get() == g; }));
}

const Tensor& HostValue(const Executor::State& s, const RecordedHostInput& h) {
  return s.slots[h.node->input_slots[h.input]];
}

// Whether each run gives checked host input `h` a new value (fed, or made before the
// body); else it is a constant or a value the body made, fixed for the recording, whose
// node does not run in a replay.
bool NewEachRun(const ReplayPlan& rp, const RecordedHostInput& h) {
  if (h.input < 0) return false;  // computed by the kernel from values fixed for it
  const int slot = h.node->input_slots[h.input];
  return std::find(rp.checked_host_slots.begin(), rp.checked_host_slots.end(), slot) !=
         rp.checked_host_slots.end();
}

bool SameLayout(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape();
}

// The run's uploads and checked host inputs have the shapes the recording read.
bool InputsFit(const Executor::State& s, const ReplayPlan& rp, const StepGraph& g) {
  for (size_t i = 0; i < rp.in_slots.size(); ++i) {
    if (!SameLayout(s.slots[rp.in_slots[i]], g.inputs[i])) return false;
  }
  for (const RecordedHostInput& h : g.host_inputs) {
    if (NewEachRun(rp, h) && !SameLayout(HostValue(s, h), h.buffer)) return false;
  }
  return true;
}

// Copies the run's value of each checked host input into the recording's buffer. A replay
// first checks it by its kernel's rule: a value the rule refuses fails the run as that
// kernel would, before anything is launched. The recording run's kernels checked theirs,
// and their slots may be gone (the body ran): the values held since are copied.
absl::Status UploadHostInputs(const Executor::State& s, const ReplayPlan& rp, StepGraph* g,
                              bool recording_run) {
  Device* d = rp.device;
  for (RecordedHostInput& h : g->host_inputs) {
    if (!recording_run && !NewEachRun(rp, h)) continue;
    const Tensor host = recording_run ? std::exchange(h.recorded_value, Tensor()) : HostValue(s, h);
    if (!recording_run) {
      if (absl::Status st = h.check(host); !st.ok()) return NameNodeAndDevice(st, *h.node);
    }
    Tensor staged;
    absl::Status st = d->CopyFromHost(host, &staged);
    if (st.ok()) st = d->CopyInto(staged, h.buffer);
    if (!st.ok()) {
      return errors::Annotate(
          st,
          absl::StrCat("uploading ", h.input < 0 ? "a host value" : absl::StrCat("input ", h.input),
                       " of ", h.node->node->DebugName(), " for the recorded step on ", d->name(),
                       ": "));
    }
  }
  return absl::OkStatus();
}

// Copies each value of `slots` into a buffer of `device` (recorded while recording) and
// puts the copy in the slot.
absl::Status CopyToOwnBuffers(Executor::State* s, Device* device, const std::vector<int>& slots,
                              std::vector<Tensor>* own) {
  for (int slot : slots) {
    const Tensor& t = s->slots[slot];
    Tensor copy(device->allocator(), t.dtype(), t.shape());
    if (!copy.IsInitialized()) {
      return errors::ResourceExhausted("no memory on ", device->name(), " for ", t.TotalBytes(),
                                       " bytes of a recorded step's value");
    }
    RILL_RETURN_IF_ERROR(device->CopyInto(t, copy));
    s->slots[slot] = copy;
    own->push_back(std::move(copy));
  }
  return absl::OkStatus();
}

}  // namespace

bool Executor::RunGraphed(State* s) const {
  const ReplayPlan& rp = *replay_;
  if (!RunInOrder(s, rp.before)) return true;  // its error is the run's
  StepGraph* g = GraphOf(s);
  if (g != nullptr && (!g->VariablesUnchanged(rp) || !InputsFit(*s, rp, *g))) {
    DropGraph(s, g);
    g = nullptr;
  }
  if (g != nullptr) {
    Replay(s, g);
  } else if (!Capture(s)) {
    return false;
  }
  if (!s->failed.load(std::memory_order_acquire)) RunInOrder(s, rp.after);
  return true;
}

void Executor::Replay(State* s, StepGraph* g) const {
  const ReplayPlan& rp = *replay_;
  if (absl::Status checked = UploadHostInputs(*s, rp, g, /*recording_run=*/false); !checked.ok()) {
    s->Fail(std::move(checked));
    return;
  }
  absl::Status st;
  for (size_t i = 0; i < rp.in_slots.size() && st.ok(); ++i) {
    st = rp.device->CopyInto(s->slots[rp.in_slots[i]], g->inputs[i]);
  }
  if (st.ok()) st = g->graph->Launch();
  if (!st.ok()) {
    s->Fail(errors::Annotate(st, absl::StrCat("replaying the step on ", rp.device->name(), ": ")));
    return;
  }
  for (size_t i = 0; i < rp.out_slots.size(); ++i) s->slots[rp.out_slots[i]] = g->outputs[i];
  replays_.fetch_add(1, std::memory_order_relaxed);
}

bool Executor::Capture(State* s) const {
  const ReplayPlan& rp = *replay_;
  Device* d = rp.device;
  auto g = std::make_unique<StepGraph>();
  g->device = d;
  absl::Status st = CopyToOwnBuffers(s, d, rp.in_slots, &g->inputs);
  g->NoteVariables(rp);
  if (st.ok()) st = d->BeginCapture();
  absl::Status recorded = st;
  if (st.ok()) {
    s->capturing = g.get();
    const bool ran = RunInOrder(s, rp.body);
    s->capturing = nullptr;
    g->recording_node = nullptr;
    if (!ran) {
      std::lock_guard<std::mutex> lock(s->mu);
      recorded = s->status;
    }
    if (recorded.ok()) recorded = CopyToOwnBuffers(s, d, rp.out_slots, &g->outputs);
    absl::StatusOr<std::unique_ptr<DeviceGraph>> graph = d->EndCapture();
    if (recorded.ok()) recorded = graph.status();
    if (graph.ok()) g->graph = *std::move(graph);
  }
  if (!recorded.ok()) {
    fallbacks_.fetch_add(1, std::memory_order_relaxed);
    StopReplaying(absl::StrCat("recording the step failed: ", recorded.message()));
    if (g->VariablesUnchanged(rp)) return false;
    // Nothing of the body ran, but a kernel gave a variable a new buffer meanwhile: its
    // value is not in it. Never hidden.
    s->Fail(errors::Internal("recording the step on ", d->name(), " failed (", recorded.message(),
                             ") after a variable was given a new buffer; its value is lost"));
    return true;
  }
  if (absl::Status up = UploadHostInputs(*s, rp, g.get(), /*recording_run=*/true); !up.ok()) {
    s->Fail(std::move(up));
    return true;
  }
  if (absl::Status launched = g->graph->Launch(); !launched.ok()) {
    s->Fail(errors::Annotate(launched,
                             absl::StrCat("launching the recorded step on ", d->name(), ": ")));
    return true;
  }
  captures_.fetch_add(1, std::memory_order_relaxed);
  if (!g->VariablesUnchanged(rp)) {
    // The recording gave a variable a new buffer: its replays would read the old one.
    StopReplaying("a variable was given a new buffer while the step was recorded");
    return true;
  }
  s->arena->Ref();
  g->arena = s->arena;
  if (s->graphs.size() >= kMaxLayouts) s->graphs.erase(s->graphs.begin());
  s->graphs.push_back(std::move(g));
  return true;
}

void Executor::StopReplaying(std::string why) const {
  std::lock_guard<std::mutex> lock(replay_mu_);
  if (replay_why_not_.empty()) replay_why_not_ = std::move(why);
  replay_off_.store(true, std::memory_order_relaxed);
}

StepGraphStats Executor::step_graph_stats() const {
  StepGraphStats st;
  st.enabled = replay_ != nullptr;
  {
    std::lock_guard<std::mutex> lock(replay_mu_);
    st.why_not = replay_why_not_;
  }
  st.captures = captures_.load(std::memory_order_relaxed);
  st.replays = replays_.load(std::memory_order_relaxed);
  st.fallbacks = fallbacks_.load(std::memory_order_relaxed);
  return st;
}

}  // namespace rill
