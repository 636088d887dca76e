#include "rill/runtime/session.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <shared_mutex>
#include <thread>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/string_view.h"
#include "rill/runtime/executor.h"
#include "rill/runtime/function_runtime.h"
#include "rill/runtime/session_request.h"
#include "rill/runtime/tensor_names.h"
#include "rill/runtime/tf_threads.h"

namespace rill {

namespace {
// RILL_CUDA_GRAPHS=1 (read when a Session is made) turns graph mode on for every Session,
// so that a GPU machine can run a whole test suite or program replaying its steps.
SessionOptions WithEnvironment(SessionOptions o) {
  o = ApplyConfig(std::move(o));
  const char* v = std::getenv("RILL_CUDA_GRAPHS");
  if (v != nullptr && std::string(v) == "1") o.cuda_graphs = true;
  return o;
}
}  // namespace

struct Session::Impl {
  Impl(const Scope& s, const SessionOptions& o, DeviceSet d)
      : scope(s), options(WithEnvironment(o)), devices(std::move(d)) {}
  Scope scope;
  SessionOptions options;
  PlacementOptions placement;
  DeviceSet devices;
  ResourceMgr resources;
  // Plans the functions of If and While nodes; outlives the plans whose kernels use it.
  SessionFunctionRuntime functions{{&devices, &placement, &resources, options.allow_tf32,
                                    OptimizeOptionsOf(options), options.plan_memory}};
  std::unique_ptr<ThreadPool> pool;
  // Not OK when the Session could not be made (bad options, no threads): every call
  // returns it.
  absl::Status init_status;
  // Calls in flight; the destructor waits for them (see ~Session).
  std::mutex calls_mu;
  std::condition_variable calls_done;
  int calls_in_flight = 0;
  // RILL_WAIT_FOR_DEVICES=1 (read when the Session is made): every Run waits for its
  // devices, so an asynchronous GPU error is reported by the Run that queued it.
  bool always_wait = [] {
    const char* v = std::getenv("RILL_WAIT_FOR_DEVICES");
    return v != nullptr && std::string(v) == "1";
  }();

  mutable std::mutex build_mu;  // serialises plan building and placement
  PlacementMap placed;
  ColocationGroups groups;  // the placer's, kept as the graph grows
  mutable std::shared_mutex cache_mu;
  // A cached plan with the executor that runs it (which owns the runs' changing state).
  absl::flat_hash_map<std::string, std::shared_ptr<const Executor>> cache;
  absl::flat_hash_map<CallableHandle, std::shared_ptr<const Executor>> callables;
  CallableHandle next_handle = 1;

  absl::StatusOr<std::shared_ptr<const Executor>> GetPlan(const std::string& key,
                                                          const PlanRequest& req) {
    {
      std::shared_lock<std::shared_mutex> lock(cache_mu);
      auto it = cache.find(key);
      if (it != cache.end()) return it->second;
    }
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<const Executor> plan, Build(req));
    std::unique_lock<std::shared_mutex> lock(cache_mu);
    auto [it, inserted] = cache.emplace(key, plan);
    return it->second;
  }

  absl::StatusOr<std::shared_ptr<const Executor>> CallableExecutor(CallableHandle handle) const {
    RILL_RETURN_IF_ERROR(Usable());
    std::shared_lock<std::shared_mutex> lock(cache_mu);
    auto it = callables.find(handle);
    if (it == callables.end()) return errors::InvalidArgument("no callable with handle ", handle);
    return it->second;
  }

  absl::StatusOr<std::shared_ptr<const Executor>> Build(const PlanRequest& req) {
    std::lock_guard<std::mutex> lock(build_mu);
    PlanContext ctx{scope.graph(),
                    &devices,
                    &placement,
                    &placed,
                    &groups,
                    &resources,
                    KernelOptions{options.allow_tf32, &functions},
                    OptimizeOptionsOf(options)};
    RILL_ASSIGN_OR_RETURN(std::unique_ptr<ExecutionPlan> plan, BuildPlan(req, ctx));
    return std::make_shared<const Executor>(std::shared_ptr<const ExecutionPlan>(std::move(plan)),
                                            options.plan_memory, options.cuda_graphs);
  }

  // offload false: every kernel runs on the calling thread (a caller's pool runs the run).
  absl::Status Execute(const Executor& executor, const Tensor* const* feeds,
                       std::vector<Tensor>* outputs, StepStatsCollector* stats = nullptr,
                       bool wait_for_devices = true, bool offload = true) const {
    const ExecutionPlan& plan = executor.plan();
    for (size_t i = 0; i < plan.feed_nodes.size(); ++i) {
      RILL_RETURN_IF_ERROR(CheckFedValue(*plan.feed_nodes[i], *feeds[i]));
    }
    // Fill the caller's vector in place: its capacity is reused from run to run.
    std::vector<Tensor> scratch;
    std::vector<Tensor>* dst = outputs != nullptr ? outputs : &scratch;
    dst->clear();
    absl::Status st = executor.Run(feeds, offload ? pool.get() : nullptr, dst, stats,
                                   wait_for_devices || always_wait);
    if (!st.ok()) dst->clear();
    return st;
  }

  absl::Status Run(const FeedType& inputs, const std::vector<Output>& fetch_outputs,
                   const std::vector<Operation>& run_outputs, std::vector<Tensor>* outputs,
                   StepStatsCollector* stats, bool wait_for_devices = true);
  absl::Status RunCallable(CallableHandle handle, const std::vector<Tensor>& feed_tensors,
                           std::vector<Tensor>* fetch_tensors, const RunOptions& run_options,
                           RunMetadata* run_metadata, bool offload);

  // Set by Close; every later call returns Cancelled.
  std::atomic<bool> closed{false};
  absl::Status Usable() const {
    if (closed.load(std::memory_order_acquire)) {
      return errors::Cancelled("Session has been closed");
    }
    return init_status;
  }
};

namespace {

// Counts a call in flight for ~Session, and refuses calls on a Session never made.
class CallGuard {
 public:
  explicit CallGuard(Session::Impl* impl) : impl_(impl) {
    std::lock_guard<std::mutex> lock(impl_->calls_mu);
    ++impl_->calls_in_flight;
  }
  ~CallGuard() {
    std::lock_guard<std::mutex> lock(impl_->calls_mu);
    if (--impl_->calls_in_flight == 0) impl_->calls_done.notify_all();
  }
  CallGuard(const CallGuard&) = delete;
  CallGuard& operator=(const CallGuard&) = delete;

 private:
  Session::Impl* impl_;
};

void AppendId(std::string* key, char tag, int32_t a, int32_t b) {
  key->push_back(tag);
  key->append(reinterpret_cast<const char*>(&a), sizeof(a));
  key->append(reinterpret_cast<const char*>(&b), sizeof(b));
}

}  // namespace

absl::Status Session::Impl::Run(const FeedType& inputs, const std::vector<Output>& fetch_outputs,
                                const std::vector<Operation>& run_outputs,
                                std::vector<Tensor>* outputs, StepStatsCollector* stats,
                                bool wait_for_devices) {
  CallGuard guard(this);
  RILL_RETURN_IF_ERROR(Usable());
  RILL_RETURN_IF_ERROR(scope.status());
  // The signature: feeds sorted (their map has no order), then fetches and targets.
  absl::InlinedVector<const FeedType::value_type*, 8> feeds;
  for (const auto& kv : inputs) {
    RILL_RETURN_IF_ERROR(CheckOutput(kv.first, scope.graph(), "feed"));
    RILL_RETURN_IF_ERROR(kv.second.status);
    feeds.push_back(&kv);
  }
  std::sort(feeds.begin(), feeds.end(), [](auto* a, auto* b) {
    return a->first.node()->id() != b->first.node()->id()
               ? a->first.node()->id() < b->first.node()->id()
               : a->first.index() < b->first.index();
  });
  std::string key;
  key.reserve(9 * (feeds.size() + fetch_outputs.size() + run_outputs.size()));
  for (auto* f : feeds) AppendId(&key, 'f', f->first.node()->id(), f->first.index());
  for (const Output& o : fetch_outputs) {
    RILL_RETURN_IF_ERROR(CheckOutput(o, scope.graph(), "fetch"));
    AppendId(&key, 'o', o.node()->id(), o.index());
  }
  for (const Operation& op : run_outputs) {
    RILL_RETURN_IF_ERROR(CheckTarget(op, scope.graph()));
    AppendId(&key, 't', op.node()->id(), 0);
  }

  std::shared_ptr<const Executor> plan;
  {
    std::shared_lock<std::shared_mutex> lock(cache_mu);
    auto it = cache.find(key);
    if (it != cache.end()) plan = it->second;
  }
  if (plan == nullptr) {
    PlanRequest req;
    for (auto* f : feeds) req.feeds.push_back({f->first.node(), f->first.index()});
    for (const Output& o : fetch_outputs) req.fetches.push_back({o.node(), o.index()});
    for (const Operation& op : run_outputs) req.targets.push_back(op.node());
    RILL_ASSIGN_OR_RETURN(plan, GetPlan(key, req));
  }
  absl::InlinedVector<const Tensor*, 8> feed_tensors;
  for (auto* f : feeds) feed_tensors.push_back(&f->second.tensor);
  return Execute(*plan, feed_tensors.data(), outputs, stats, wait_for_devices);
}

Session::Session(const Scope& scope) : Session(scope, SessionOptions()) {}

Session::Session(const Scope& scope, const SessionOptions& options)
    : Session(scope, options, DevicesFor(options.config)) {}

Session::Session(const Scope& scope, const SessionOptions& options, DeviceSet devices)
    : impl_(std::make_unique<Impl>(scope, options, std::move(devices))) {
  impl_->placement.allow_soft_placement = impl_->options.allow_soft_placement;
  impl_->placement.log_device_placement = impl_->options.log_device_placement;
  for (const auto& d : impl_->devices.devices()) {
    if (d == nullptr) {
      impl_->init_status = errors::InvalidArgument("the Session's DeviceSet holds a null device");
      return;
    }
  }
  if (impl_->devices.cpu() == nullptr) {  // feeds, fetches and variables' host copies need it
    impl_->init_status = errors::InvalidArgument("the Session's DeviceSet has no CPU device");
    return;
  }
  if (!options.target.empty()) {
    impl_->init_status = errors::InvalidArgument("SessionOptions.target '", options.target,
                                                 "': rill runs in this process; leave it empty");
    return;
  }
  if (impl_->options.inter_op_threads < 0 || impl_->options.inter_op_threads > kMaxPoolThreads) {
    impl_->init_status = errors::InvalidArgument(
        "SessionOptions.inter_op_threads must be 0 (one per core but one) .. ", kMaxPoolThreads,
        ", got ", impl_->options.inter_op_threads);
    return;
  }
  // TensorFlow's negative inter_op_parallelism_threads: no pool, every kernel on the caller.
  if (options.config.inter_op_parallelism_threads() < 0) return;
  const int threads = impl_->options.inter_op_threads > 0 ? impl_->options.inter_op_threads
                                                          : DefaultPoolThreads(SchedulableCores());
  auto pool = ThreadPool::Create(threads);
  if (!pool.ok()) {
    impl_->init_status = errors::Annotate(pool.status(), "cannot make the Session: ");
    return;
  }
  impl_->pool = *std::move(pool);
}

absl::StatusOr<std::unique_ptr<Session>> Session::Create(const Scope& scope,
                                                         const SessionOptions& options) {
  auto session = std::make_unique<Session>(scope, options);
  RILL_RETURN_IF_ERROR(session->status());
  return session;
}

const absl::Status& Session::status() const { return impl_->init_status; }

// Calls still running in other threads finish first: destroying a Session while it runs
// is not undefined behaviour here (it is in TensorFlow). A call that starts after the
// destructor has begun is the caller's use-after-free, as for any object.
Session::~Session() {
  std::unique_lock<std::mutex> lock(impl_->calls_mu);
  impl_->calls_done.wait(lock, [this] { return impl_->calls_in_flight == 0; });
}

absl::Status Session::Run(const std::vector<Output>& fetch_outputs,
                          std::vector<Tensor>* outputs) const {
  return Run(FeedType(), fetch_outputs, {}, outputs);
}

absl::Status Session::Run(const FeedType& inputs, const std::vector<Output>& fetch_outputs,
                          std::vector<Tensor>* outputs) const {
  return Run(inputs, fetch_outputs, {}, outputs);
}

absl::Status Session::Run(const FeedType& inputs, const std::vector<Output>& fetch_outputs,
                          const std::vector<Operation>& run_outputs,
                          std::vector<Tensor>* outputs) const {
  return impl_->Run(inputs, fetch_outputs, run_outputs, outputs, nullptr);
}

absl::Status Session::Run(const std::vector<std::pair<std::string, Tensor>>& inputs,
                          const std::vector<std::string>& output_tensor_names,
                          const std::vector<std::string>& target_node_names,
                          std::vector<Tensor>* outputs) const {
  RILL_RETURN_IF_ERROR(impl_->Usable());
  const Graph& graph = *impl_->scope.graph();
  FeedType feeds;
  for (const auto& [name, value] : inputs) {
    RILL_ASSIGN_OR_RETURN(Output o, FindOutput(graph, name));
    if (!feeds.emplace(o, value).second) {
      return errors::InvalidArgument("'", name, "' is fed twice");
    }
  }
  std::vector<Output> fetches;
  for (const std::string& name : output_tensor_names) {
    RILL_ASSIGN_OR_RETURN(Output o, FindOutput(graph, name));
    fetches.push_back(o);
  }
  std::vector<Operation> targets;
  for (const std::string& name : target_node_names) {
    RILL_ASSIGN_OR_RETURN(Operation op, FindOperation(graph, name));
    targets.push_back(op);
  }
  return Run(feeds, fetches, targets, outputs);
}

absl::Status Session::Run(const RunOptions& run_options, const FeedType& inputs,
                          const std::vector<Output>& fetch_outputs,
                          const std::vector<Operation>& run_outputs, std::vector<Tensor>* outputs,
                          RunMetadata* run_metadata) const {
  if (run_options.trace_level == RunOptions::NO_TRACE || run_metadata == nullptr) {
    return impl_->Run(inputs, fetch_outputs, run_outputs, outputs, nullptr,
                      run_options.wait_for_devices);
  }
  StepStatsCollector stats;
  absl::Status st = impl_->Run(inputs, fetch_outputs, run_outputs, outputs, &stats);
  absl::Status traced = stats.Finish(&run_metadata->step_stats);
  return st.ok() ? traced : st;
}

absl::Status Session::MakeCallable(const CallableOptions& options, CallableHandle* out_handle) {
  CallGuard guard(impl_.get());
  RILL_RETURN_IF_ERROR(impl_->Usable());
  RILL_RETURN_IF_ERROR(impl_->scope.status());
  PlanRequest req;
  RILL_RETURN_IF_ERROR(RequestOf(options, impl_->scope.graph(), &req));
  RILL_ASSIGN_OR_RETURN(std::shared_ptr<const Executor> plan, impl_->Build(req));
  std::unique_lock<std::shared_mutex> lock(impl_->cache_mu);
  *out_handle = impl_->next_handle++;
  impl_->callables[*out_handle] = std::move(plan);
  return absl::OkStatus();
}

absl::Status Session::RunCallable(CallableHandle handle, const std::vector<Tensor>& feed_tensors,
                                  std::vector<Tensor>* fetch_tensors) const {
  return RunCallable(handle, feed_tensors, fetch_tensors, RunOptions(), nullptr);
}

absl::Status Session::RunCallable(CallableHandle handle, const std::vector<Tensor>& feed_tensors,
                                  std::vector<Tensor>* fetch_tensors,
                                  RunMetadata* run_metadata) const {
  return RunCallable(handle, feed_tensors, fetch_tensors, RunOptions(), run_metadata);
}

absl::Status Session::RunCallable(CallableHandle handle, const std::vector<Tensor>& feed_tensors,
                                  std::vector<Tensor>* fetch_tensors, const RunOptions& run_options,
                                  RunMetadata* run_metadata) const {
  return impl_->RunCallable(handle, feed_tensors, fetch_tensors, run_options, run_metadata, true);
}

absl::Status Session::RunCallable(CallableHandle handle, const std::vector<Tensor>& feed_tensors,
                                  std::vector<Tensor>* fetch_tensors, RunMetadata* run_metadata,
                                  const thread::ThreadPoolOptions& pools) const {
  if (pools.inter_op_threadpool == nullptr) {
    return RunCallable(handle, feed_tensors, fetch_tensors, run_metadata);
  }
  // The run goes to the caller's pool whole: handing kernels from it to the same pool
  // could wait on a task queued behind the run itself.
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  absl::Status st;
  pools.inter_op_threadpool->Schedule([&] {
    absl::Status s =
        impl_->RunCallable(handle, feed_tensors, fetch_tensors, RunOptions(), run_metadata, false);
    std::lock_guard<std::mutex> lock(mu);
    st = std::move(s);
    done = true;
    cv.notify_one();
  });
  std::unique_lock<std::mutex> lock(mu);
  cv.wait(lock, [&] { return done; });
  return st;
}

absl::Status Session::Impl::RunCallable(CallableHandle handle,
                                        const std::vector<Tensor>& feed_tensors,
                                        std::vector<Tensor>* fetch_tensors,
                                        const RunOptions& run_options, RunMetadata* run_metadata,
                                        bool offload) {
  CallGuard guard(this);
  RILL_RETURN_IF_ERROR(Usable());
  std::shared_ptr<const Executor> plan;
  {
    std::shared_lock<std::shared_mutex> lock(cache_mu);
    auto it = callables.find(handle);
    if (it == callables.end()) return errors::InvalidArgument("no callable with handle ", handle);
    plan = it->second;
  }
  if (feed_tensors.size() != plan->plan().feed_slots.size()) {
    return errors::InvalidArgument("callable ", handle, " takes ", plan->plan().feed_slots.size(),
                                   " feed tensors, got ", feed_tensors.size());
  }
  absl::InlinedVector<const Tensor*, 8> feeds;
  for (const Tensor& t : feed_tensors) feeds.push_back(&t);
  if (run_options.trace_level == RunOptions::NO_TRACE || run_metadata == nullptr) {
    return Execute(*plan, feeds.data(), fetch_tensors, nullptr, run_options.wait_for_devices,
                   offload);
  }
  StepStatsCollector stats;
  absl::Status st = Execute(*plan, feeds.data(), fetch_tensors, &stats, true, offload);
  absl::Status traced = stats.Finish(&run_metadata->step_stats);
  return st.ok() ? traced : st;
}

absl::Status Session::Close() {
  impl_->closed.store(true, std::memory_order_release);
  std::unique_lock<std::shared_mutex> lock(impl_->cache_mu);
  impl_->cache.clear();
  impl_->callables.clear();
  return absl::OkStatus();
}

Scope Session::scope() const { return impl_->scope; }

absl::Status Session::ReleaseCallable(CallableHandle handle) {
  std::unique_lock<std::shared_mutex> lock(impl_->cache_mu);
  if (impl_->callables.erase(handle) == 0) {
    return errors::InvalidArgument("no callable with handle ", handle);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> Session::AssignedDevice(const Operation& op) const {
  RILL_RETURN_IF_ERROR(CheckTarget(op, impl_->scope.graph()));
  std::lock_guard<std::mutex> lock(impl_->build_mu);
  auto it = impl_->placed.find(op.node());
  if (it == impl_->placed.end()) {
    return errors::NotFound("node '", op.name(), "' has not been placed by this session yet");
  }
  return it->second.device->name();
}

absl::StatusOr<std::string> Session::PlacementReason(const Operation& op) const {
  RILL_RETURN_IF_ERROR(CheckTarget(op, impl_->scope.graph()));
  std::lock_guard<std::mutex> lock(impl_->build_mu);
  auto it = impl_->placed.find(op.node());
  if (it == impl_->placed.end()) {
    return errors::NotFound("node '", op.name(), "' has not been placed by this session yet");
  }
  return it->second.reason;
}

std::vector<std::string> Session::ListDevices() const {
  std::vector<std::string> out;
  for (const auto& d : impl_->devices.devices()) {
    if (d != nullptr) out.push_back(d->name());
  }
  return out;
}

absl::Status Session::ListDevices(std::vector<DeviceAttributes>* response) const {
  RILL_RETURN_IF_ERROR(impl_->Usable());
  response->clear();
  for (const auto& d : impl_->devices.devices()) {
    if (d != nullptr) response->push_back({d->name(), d->device_type()});
  }
  return absl::OkStatus();
}

absl::StatusOr<GraphView> Session::ViewPlan(const CallableOptions& signature) const {
  CallGuard guard(impl_.get());
  RILL_RETURN_IF_ERROR(impl_->Usable());
  RILL_RETURN_IF_ERROR(impl_->scope.status());
  PlanRequest req;
  RILL_RETURN_IF_ERROR(RequestOf(signature, impl_->scope.graph(), &req));
  RILL_ASSIGN_OR_RETURN(std::shared_ptr<const Executor> plan, impl_->Build(req));
  return ViewOfPlan(plan->plan());
}

int Session::calls_in_flight() const {
  std::lock_guard<std::mutex> lock(impl_->calls_mu);
  return impl_->calls_in_flight;
}

absl::StatusOr<MemoryPlanStats> Session::GetMemoryPlanStats(CallableHandle handle) const {
  RILL_ASSIGN_OR_RETURN(std::shared_ptr<const Executor> e, impl_->CallableExecutor(handle));
  return e->memory_stats();
}

absl::StatusOr<StepGraphStats> Session::GetStepGraphStats(CallableHandle handle) const {
  RILL_ASSIGN_OR_RETURN(std::shared_ptr<const Executor> e, impl_->CallableExecutor(handle));
  return e->step_graph_stats();
}

int Session::num_cached_plans() const {
  std::shared_lock<std::shared_mutex> lock(impl_->cache_mu);
  return static_cast<int>(impl_->cache.size());
}

}  // namespace rill
