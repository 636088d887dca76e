#include "rill/runtime/step_stats.h"

#include <algorithm>

namespace rill {

StepStatsCollector::StepStatsCollector()
    : start_(std::chrono::steady_clock::now()),
      start_unix_us_(std::chrono::duration_cast<std::chrono::microseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count()),
      caller_(std::this_thread::get_id()) {
  threads_[caller_] = 0;
}

void StepStatsCollector::Record(const Node& node, const std::string& device, const Tensor* outputs,
                                int n_outputs, int64_t start_ns, int64_t end_ns,
                                std::unique_ptr<DeviceTimer> timer,
                                const std::vector<std::string>* replaces) {
  NodeExecStats s;
  if (replaces != nullptr) s.replaces = *replaces;
  s.node_name = node.name();
  s.op = node.type_string();
  s.device = device;
  s.start_ns = start_ns;
  s.end_ns = end_ns;
  s.is_copy = s.op == "_Copy";
  for (int i = 0; i < n_outputs; ++i) {
    if (!outputs[i].IsInitialized()) continue;
    s.output_bytes += static_cast<int64_t>(outputs[i].TotalBytes());
    s.output_shapes.push_back(outputs[i].shape().DebugString());
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, added] =
      threads_.try_emplace(std::this_thread::get_id(), static_cast<int>(threads_.size()));
  s.thread = it->second;
  if (timer != nullptr) timers_.emplace_back(nodes_.size(), std::move(timer));
  nodes_.push_back(std::move(s));
}

absl::Status StepStatsCollector::Finish(StepStats* out) {
  std::lock_guard<std::mutex> lock(mu_);
  absl::Status status;
  for (auto& [index, timer] : timers_) {
    absl::StatusOr<int64_t> ns = timer->ElapsedNs();
    if (ns.ok()) {
      nodes_[index].device_ns = *ns;
    } else if (status.ok()) {
      status = ns.status();
    }
  }
  timers_.clear();
  std::stable_sort(
      nodes_.begin(), nodes_.end(),
      [](const NodeExecStats& a, const NodeExecStats& b) { return a.start_ns < b.start_ns; });
  out->start_unix_us = start_unix_us_;
  out->wall_ns = Now();
  out->nodes = std::move(nodes_);
  nodes_.clear();
  return status;
}

namespace {
thread_local StepStatsCollector* current_step_stats = nullptr;
}  // namespace

StepStatsCollector* CurrentStepStats() { return current_step_stats; }
ScopedStepStats::ScopedStepStats(StepStatsCollector* stats) : saved_(current_step_stats) {
  current_step_stats = stats;
}
ScopedStepStats::~ScopedStepStats() { current_step_stats = saved_; }

}  // namespace rill
