#include "rill/runtime/executor.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "absl/container/inlined_vector.h"
#include "absl/strings/match.h"
#include "rill/core/async_kernel.h"
#include "rill/runtime/copy.h"
#include "rill/runtime/executor_state.h"

namespace rill {

// The shared apply and shape checks name their node themselves.
absl::Status NameNodeAndDevice(const absl::Status& st, const PlanNode& pn) {
  const std::string node = pn.node->DebugName();
  absl::string_view msg = st.message();
  if (absl::StartsWith(msg, node)) {
    msg.remove_prefix(node.size());
    const std::string device = absl::StrCat(" on ", pn.device->name());
    if (absl::StartsWith(msg, device)) msg.remove_prefix(device.size());
    return absl::Status(st.code(), absl::StrCat(node, device, msg));
  }
  return errors::Annotate(st, absl::StrCat(node, " on ", pn.device->name(), ": "));
}

namespace {
using RunState = Executor::State;

Tensor ReadVariable(Var* v) {
  std::lock_guard<std::mutex> lock(v->mu());
  return v->value();
}

absl::Status UninitializedInput(const PlanNode& pn, int i) {
  if (i >= pn.node->num_inputs()) {
    return errors::Internal(pn.node->DebugName(), ": input ", i, " was not produced");
  }
  const Node* src = pn.node->input(i).node;
  if (src->IsVariable()) {
    return errors::FailedPrecondition("Attempting to use uninitialized value ", src->name(),
                                      " (read by ", pn.node->DebugName(), " on ", pn.device->name(),
                                      "); run its initializer first");
  }
  return errors::Internal(pn.node->DebugName(), ": input ", i, " from '", src->name(),
                          "' was not produced");
}

// A recording run notes how each output got its memory (runtime/passes/memory.cc).
void Record(RunState* s, const PlanNode& pn, const OpKernelContext& ctx,
            const Tensor* const* inputs) {
  for (int o = 0; o < pn.node->num_outputs(); ++o) {
    const int slot = pn.first_output_slot + o;
    const Tensor& t = s->slots[slot];
    if (!t.IsInitialized()) continue;
    s->record.bytes[slot] = MemoryRecord::kNotAllocated;
    if (o < 64 && ((ctx.allocated_outputs() >> o) & 1) && !pn.outputs_on_host) {
      s->record.bytes[slot] = static_cast<int64_t>(t.TotalBytes());
      continue;
    }
    for (size_t i = 0; i < pn.input_slots.size(); ++i) {
      if (pn.input_vars[i] == nullptr && !pn.input_is_ref[i] && t.SharesBufferWith(*inputs[i])) {
        s->record.alias[slot] = pn.input_slots[i];
        break;
      }
    }
  }
}

void FinishNode(RunState* s, const PlanNode& pn, absl::Status st, int64_t start_ns,
                std::unique_ptr<DeviceTimer> timer);
void ReleaseInputs(RunState* s, const PlanNode& pn);
void StartAsync(const std::shared_ptr<RunState>& owner, RunState* s, const PlanNode& pn,
                OpKernelContext& ctx, int64_t start_ns);

// Points inputs[i] at each input's value: a slot, or a variable's value read now.
absl::Status GatherInputs(RunState* s, const PlanNode& pn, const Tensor** inputs,
                          absl::InlinedVector<Tensor, 8>* var_values) {
  if (pn.reads_variables) {  // stable addresses for `inputs`
    var_values->reserve(std::count_if(pn.input_vars.begin(), pn.input_vars.end(),
                                      [](const auto* v) { return v != nullptr; }));
  }
  for (size_t i = 0; i < pn.input_slots.size(); ++i) {
    if (pn.reads_variables && pn.input_vars[i] != nullptr) {
      var_values->push_back(ReadVariable(pn.input_vars[i]));
      Device* from = pn.input_var_devices[i];
      if (from != pn.device && var_values->back().IsInitialized()) {
        RILL_RETURN_IF_ERROR(
            CopyBetweenDevices(Tensor(var_values->back()), from, pn.device, &var_values->back()));
      }
      inputs[i] = &var_values->back();
    } else {
      inputs[i] = &s->slots[pn.input_slots[i]];
    }
    // A Merge's dead inputs reach its kernel unset (runtime/deadness.cc).
    const bool dead = pn.is_merge && s->dead_slots != nullptr && s->dead_slots[pn.input_slots[i]];
    if (!inputs[i]->IsInitialized() && !pn.input_is_ref[i] && !dead) {
      return UninitializedInput(pn, static_cast<int>(i));
    }
  }
  return absl::OkStatus();
}

}  // namespace

// Runs one node's kernel; false when an async kernel will finish the node later.
bool RunNode(const std::shared_ptr<RunState>& owner, RunState* s, const PlanNode& pn) {
  const int n_in = static_cast<int>(pn.input_slots.size());
  if (s->dead_slots != nullptr && InputsDead(*s, pn)) {
    MarkDead(s, pn);  // it does not run (runtime/deadness.cc)
    ReleaseInputs(s, pn);
    return true;
  }
  if (!s->failed.load(std::memory_order_acquire)) {
    StepStatsCollector* stats = s->stats;
    const int64_t start_ns = stats != nullptr ? stats->Now() : 0;
    std::unique_ptr<DeviceTimer> timer =
        stats != nullptr && !pn.device->IsHost() ? pn.device->StartTimer() : nullptr;
    absl::InlinedVector<const Tensor*, 16> inputs(n_in);  // ApplyAdam reads 10
    absl::InlinedVector<Tensor, 8> var_values;            // no allocation per run up to 8 variables
    absl::Status st = GatherInputs(s, pn, inputs.data(), &var_values);
    if (st.ok()) {
      OpKernelContext ctx(*pn.node, pn.device, inputs.data(),
                          s->slots.data() + pn.first_output_slot, pn.forwardable);
      NodeOutputMemory planned(s->arena, pn.first_output_slot);
      if (pn.outputs_on_host) {
        ctx.set_output_allocator(s->plan.host->allocator());
      } else if (s->arena != nullptr) {
        ctx.set_output_memory(&planned);
      }
      if (s->capturing != nullptr) {  // graph mode: checked host inputs are noted
        s->capturing->recording_node = &pn;
        ctx.set_host_input_recorder(s->capturing);
      }
      if (pn.async) {
        StartAsync(owner, s, pn, ctx, start_ns);
        return false;
      }
      // In a traced step, functions the kernel calls join the trace. Untraced, nothing is
      // set: the thread's current trace is null there already (a thread-local access in a
      // shared library is a call, kept off the untraced path).
      std::optional<ScopedStepStats> traced;
      if (stats != nullptr) traced.emplace(stats);
      if (pn.expensive) {
        const auto start = std::chrono::steady_clock::now();
        st = pn.kernel->Compute(ctx);
        const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now() - start)
                            .count();
        s->compute_ns[&pn - s->plan.nodes.data()].store(ns, std::memory_order_relaxed);
      } else {
        st = pn.kernel->Compute(ctx);
      }
      if (st.ok() && pn.kills_outputs) MarkUnsetOutputsDead(s, pn);
      if (st.ok() && s->recording) Record(s, pn, ctx, inputs.data());
    }
    FinishNode(s, pn, std::move(st), start_ns, std::move(timer));
    return true;
  }
  ReleaseInputs(s, pn);  // a failed run: only the bookkeeping
  return true;
}

namespace {

// Drop inputs after their last consumer so memory is reused within a run.
void ReleaseInputs(RunState* s, const PlanNode& pn) {
  for (size_t i = 0; i < pn.input_slots.size(); ++i) {
    int slot = pn.input_slots[i];
    if (!s->plan.slot_pinned[slot] && s->uses[slot].fetch_sub(1, std::memory_order_acq_rel) == 1) {
      s->slots[slot] = Tensor();
    }
  }
}

// After a node's kernel: its trace entry, its error, and the values it no longer needs.
void FinishNode(RunState* s, const PlanNode& pn, absl::Status st, int64_t start_ns,
                std::unique_ptr<DeviceTimer> timer) {
  if (StepStatsCollector* stats = s->stats; stats != nullptr) {
    if (timer != nullptr) timer->Stop();
    auto fused = s->plan.replaces.find(pn.node);
    stats->Record(*pn.node, pn.device->name(), s->slots.data() + pn.first_output_slot,
                  pn.node->num_outputs(), start_ns, stats->Now(), std::move(timer),
                  fused == s->plan.replaces.end() ? nullptr : &fused->second);
  }
  if (!st.ok()) s->Fail(NameNodeAndDevice(st, pn));
  // An output nobody reads goes at once (the memory plan counts on it).
  for (uint64_t u = pn.unused_outputs; u != 0; u &= u - 1) {
    s->slots[pn.first_output_slot + __builtin_ctzll(u)] = Tensor();
  }
  ReleaseInputs(s, pn);
}

void Process(const std::shared_ptr<RunState>& owner, RunState* s, int first);

// One node fewer to go; the last wakes the thread waiting in Run.
void NodeDone(RunState* s) {
  if (s->remaining.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  s->remaining.notify_all();
  if (s->plan.has_async) {
    std::lock_guard<std::mutex> lock(s->inbox_mu);
    s->inbox_cv.notify_all();
  }
}

// A pool task: the run state stays alive while the task holds it.
void ProcessTask(const std::shared_ptr<void>& obj, int first) {
  std::shared_ptr<RunState> owner = std::static_pointer_cast<RunState>(obj);
  Process(owner, owner.get(), first);
}

// Worth a thread hand-off (a few microseconds): an expensive kernel not yet measured, or
// one whose last Compute took longer than this.
constexpr int64_t kOffloadNs = 30000;
bool Offload(const RunState& s, int id) {
  if (!s.plan.nodes[id].expensive) return false;
  const int64_t ns = s.compute_ns[id].load(std::memory_order_relaxed);
  return ns < 0 || ns >= kOffloadNs;
}

// Runs `first` and, inline, whatever it makes ready; hands extra expensive work to the pool.
void Process(const std::shared_ptr<RunState>& owner, RunState* s, int first) {
  absl::InlinedVector<int, 16> stack = {first};
  while (!stack.empty()) {
    int id = stack.back();
    stack.pop_back();
    const PlanNode& pn = s->plan.nodes[id];
    if (!RunNode(owner, s, pn)) continue;  // its kernel's callback goes on from there
    for (int c : pn.consumers) {
      if (s->pending[c].fetch_sub(1, std::memory_order_acq_rel) != 1) continue;
      if (s->pool != nullptr && !stack.empty() && Offload(*s, c)) {
        s->pool->Schedule(&ProcessTask, owner, c);
      } else {
        stack.push_back(c);
      }
    }
    NodeDone(s);
  }
}

// An async kernel has finished its node: what it made ready goes to the pool, or to the
// thread waiting in Run.
void AsyncDone(const std::shared_ptr<RunState>& owner, RunState* s, const PlanNode& pn,
               absl::Status st, int64_t start_ns) {
  FinishNode(s, pn, std::move(st), start_ns, nullptr);
  for (int c : pn.consumers) {
    if (s->pending[c].fetch_sub(1, std::memory_order_acq_rel) != 1) continue;
    if (s->pool != nullptr) {
      s->pool->Schedule(&ProcessTask, owner, c);
    } else {
      std::lock_guard<std::mutex> lock(s->inbox_mu);
      s->inbox.push_back(c);
      s->inbox_cv.notify_one();
    }
  }
  NodeDone(s);
}

void StartAsync(const std::shared_ptr<RunState>& owner, RunState* s, const PlanNode& pn,
                OpKernelContext& ctx, int64_t start_ns) {
  auto* kernel = static_cast<AsyncOpKernel*>(pn.kernel.get());
  kernel->ComputeAsync(ctx, s->slots.data() + pn.first_output_slot,
                       [owner, s, &pn, start_ns](absl::Status st) {
                         AsyncDone(owner, s, pn, std::move(st), start_ns);
                       });
}

// Runs what async kernels made ready, on the calling thread, until the run is over.
void DrainInbox(const std::shared_ptr<RunState>& owner, RunState* s) {
  for (;;) {
    int id;
    {
      std::unique_lock<std::mutex> lock(s->inbox_mu);
      s->inbox_cv.wait(lock, [s] {
        return !s->inbox.empty() || s->remaining.load(std::memory_order_acquire) == 0;
      });
      if (s->inbox.empty()) return;
      id = s->inbox.back();
      s->inbox.pop_back();
    }
    Process(owner, s, id);
  }
}

absl::Status Finish(const ExecutionPlan& plan, RunState* s, std::vector<Tensor>* fetches,
                    bool wait);

}  // namespace

Executor::Executor(std::shared_ptr<const ExecutionPlan> plan, bool plan_memory, bool step_graphs)
    : plan_(std::move(plan)),
      compute_ns_(new std::atomic<int64_t>[plan_->nodes.size()]),
      plan_memory_(plan_memory) {
  for (size_t i = 0; i < plan_->nodes.size(); ++i) {
    compute_ns_[i].store(-1, std::memory_order_relaxed);
  }
  if (step_graphs) {
    replay_ = std::make_unique<const ReplayPlan>(AnalyzeForReplay(*plan_));
    if (!plan_memory)
      StopReplaying("the plan's memory is not planned (SessionOptions::plan_memory)");
    if (replay_->device == nullptr) StopReplaying(replay_->why_not);
  }
}

Executor::~Executor() = default;

// Run states are reused, so a steady-state Run allocates no bookkeeping (nor a new arena).
std::shared_ptr<Executor::State> Executor::Acquire(ThreadPool* pool) const {
  {
    std::lock_guard<std::mutex> lock(free_mu_);
    while (!free_.empty()) {
      std::shared_ptr<State> s = std::move(free_.back());
      free_.pop_back();
      if (s->pool == pool) {
        s->Reset();
        return s;
      }
    }
  }
  return std::make_shared<State>(*plan_, compute_ns_.get(), pool);
}

void Executor::Release(std::shared_ptr<State> s) const {
  // A pool task that ran the last node may still be returning (it notified the waiter
  // before letting go of the state): wait for it, so the state is ours alone again.
  while (s.use_count() > 1) std::this_thread::yield();
  std::lock_guard<std::mutex> lock(free_mu_);
  if (free_.size() < 8) free_.push_back(std::move(s));
}

absl::Status Executor::Run(const Tensor* const* feeds, ThreadPool* pool,
                           std::vector<Tensor>* fetches, StepStatsCollector* stats,
                           bool wait_for_devices) const {
  const ExecutionPlan& plan = *plan_;
  std::shared_ptr<RunState> state = Acquire(pool);
  RunState* s = state.get();
  s->stats = stats;
  PrepareMemory(s, feeds);
  auto fill = [&] {
    for (size_t i = 0; i < plan.feed_slots.size(); ++i) {
      s->slots[plan.feed_slots[i]] = feeds[i]->AlignedForKernels();  // a Slice may not be
    }
    for (const auto& [slot, value] : plan.constants) s->slots[slot] = value;
  };
  fill();

  bool ran = false;
  if (replay_ != nullptr && stats == nullptr && s->arena != nullptr &&
      !replay_off_.load(std::memory_order_relaxed)) {
    ran = RunGraphed(s);
    if (!ran) {  // a recording failed: the step again from the start, the usual way
      for (Tensor& t : s->slots) t = Tensor();
      s->Reset();
      fill();
    }
  }
  if (!ran && !plan.roots.empty()) {
    // Roots beyond the first go to the pool when they are expensive, else run inline.
    for (size_t r = 1; r < plan.roots.size(); ++r) {
      int id = plan.roots[r];
      if (pool != nullptr && Offload(*s, id)) {
        pool->Schedule(&ProcessTask, state, id);
      } else {
        Process(state, s, id);
      }
    }
    Process(state, s, plan.roots.front());
    if (plan.has_async) DrainInbox(state, s);  // also when a pool runs what they made ready
    for (int left = s->remaining.load(std::memory_order_acquire); left != 0;
         left = s->remaining.load(std::memory_order_acquire)) {
      s->remaining.wait(left, std::memory_order_acquire);
    }
  }
  // Only a step that fetches nothing and is not traced may leave its device work queued.
  const bool wait = wait_for_devices || !plan.fetch_slots.empty() || stats != nullptr;
  absl::Status st = Finish(plan, s, fetches, wait);
  for (Tensor& t : s->slots) {
    if (t.IsInitialized()) t = Tensor();
  }
  if (st.ok()) LearnMemory(s, feeds);
  Release(std::move(state));
  return st;
}

void Executor::PrepareMemory(State* s, const Tensor* const* feeds) const {
  std::shared_ptr<const MemoryLayout> layout;
  bool room = false;
  if (plan_memory_) {
    std::lock_guard<std::mutex> lock(memory_mu_);
    for (const auto& l : layouts_) {
      if (l->Fits(feeds)) {
        layout = l;
        break;
      }
    }
    room = layouts_.size() < kMaxLayouts;
  }
  s->recording = false;
  if (s->arena != nullptr && &s->arena->layout() != layout.get()) {
    s->arena->Unref();
    s->arena = nullptr;
  }
  if (layout != nullptr) {
    // A step recorded for this layout writes its own arena: take that one.
    for (const auto& g : s->graphs) {
      if (s->arena == nullptr && &g->arena->layout() == layout.get()) {
        g->arena->Ref();
        s->arena = g->arena;
      }
    }
    if (s->arena == nullptr) s->arena = Arena::Create(std::move(layout));
  } else if (room) {  // beyond kMaxLayouts feed shapes, runs allocate as they go
    s->recording = true;
    s->record.Reset(plan_->num_slots);
  }
}

void Executor::LearnMemory(State* s, const Tensor* const* feeds) const {
  if (s->recording) {
    s->recording = false;
    std::lock_guard<std::mutex> lock(memory_mu_);
    if (layouts_.size() >= kMaxLayouts) return;
    for (const auto& l : layouts_) {
      if (l->Fits(feeds)) return;  // another run got there first
    }
    if (unplannable_.empty()) unplannable_.assign(plan_->num_slots, 0);
    layouts_.push_back(PlanMemory(*plan_, s->record, unplannable_, feeds));
    last_stats_ = layouts_.back()->stats;
    return;
  }
  std::vector<int> misfits;
  if (s->arena == nullptr || !s->arena->Misfits(&misfits)) return;
  // Values kept past their run or grown beyond their recorded size: planned no more, and
  // every layout made again by the next run of its shapes.
  std::lock_guard<std::mutex> lock(memory_mu_);
  for (int slot : misfits) unplannable_[slot] = 1;
  layouts_.clear();
}

MemoryPlanStats Executor::memory_stats() const {
  std::lock_guard<std::mutex> lock(memory_mu_);
  return last_stats_;
}

namespace {

absl::Status Finish(const ExecutionPlan& plan, RunState* s, std::vector<Tensor>* fetches,
                    bool wait) {
  absl::Status synced;
  for (Device* d : plan.sync_devices) {
    absl::Status st = wait ? d->Sync() : d->FinishStepAsync();
    if (!st.ok() && synced.ok()) synced = errors::Annotate(st, absl::StrCat(d->name(), ": "));
  }
  {
    std::lock_guard<std::mutex> lock(s->mu);
    if (!s->status.ok()) return s->status;
  }
  RILL_RETURN_IF_ERROR(synced);
  for (size_t i = 0; i < plan.fetch_slots.size(); ++i) {
    RILL_RETURN_IF_ERROR(CheckFetchLive(*s, static_cast<int>(i)));
    Tensor t =
        plan.fetch_vars[i] ? ReadVariable(plan.fetch_vars[i]) : s->slots[plan.fetch_slots[i]];
    if (plan.fetch_vars[i] && t.IsInitialized() && plan.fetch_var_devices[i] != plan.host) {
      RILL_RETURN_IF_ERROR(CopyBetweenDevices(Tensor(t), plan.fetch_var_devices[i], plan.host, &t));
    }
    if (!t.IsInitialized()) {
      const Node* p = plan.fetch_producers[i];
      if (p->IsVariable()) {
        return errors::FailedPrecondition(
            "Attempting to use uninitialized value ", p->name(), " (", p->type_string(), " on ",
            plan.fetch_var_devices[i]->name(), "); run its initializer first");
      }
      return errors::Internal(p->DebugName(), " produced no value to fetch");
    }
    fetches->push_back(std::move(t));
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace rill
