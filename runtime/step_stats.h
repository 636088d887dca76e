// What one traced step did, TensorFlow's RunOptions / RunMetadata shape:
//   RunOptions opts;
//   opts.trace_level = RunOptions::FULL_TRACE;
//   RunMetadata meta;
//   session.Run(opts, feeds, fetches, targets, &outputs, &meta);
//   WriteChromeTrace(meta.step_stats, "step.json");   // runtime/io/trace.h
// Per node: device, start and end (from the step's start), the thread that ran it, the
// bytes and shapes it produced, and on a GPU the time its kernels took on the device.
// Copies between devices are nodes of their own (op "_Copy"). Untraced runs pay nothing.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "rill/core/kernel.h"

namespace rill {

struct RunOptions {
  enum TraceLevel { NO_TRACE = 0, FULL_TRACE = 3 };
  TraceLevel trace_level = NO_TRACE;
  // false: a Run that fetches nothing returns once its work is queued on its devices
  // instead of waiting for a GPU to finish it, so the host prepares the next step while
  // the GPU runs this one (Keras Fit's steps). The device keeps what that work reads
  // until it is done, and lets at most two such steps be queued ahead of it. An error in
  // that work is reported by a later Run. Runs that fetch, and traced Runs, always wait.
  bool wait_for_devices = true;
};

struct NodeExecStats {
  std::string node_name;
  std::string op;
  std::string device;    // full name
  int64_t start_ns = 0;  // host time, from the step's start
  int64_t end_ns = 0;
  int thread = 0;  // 0 is the thread that called Run; pool threads follow
  int64_t output_bytes = 0;
  std::vector<std::string> output_shapes;  // "[32,10]"
  bool is_copy = false;
  // A node of the optimized plan that stands for others (a fusion, a folded constant):
  // the names of the nodes of the user's graph it replaced.
  std::vector<std::string> replaces;
  // The device time of the work the node queued (CUDA events on a GPU); -1 on the CPU,
  // where the kernel ran between start_ns and end_ns.
  int64_t device_ns = -1;
};

struct StepStats {
  int64_t start_unix_us = 0;         // wall clock at the step's start
  int64_t wall_ns = 0;               // the step, start to finish
  std::vector<NodeExecStats> nodes;  // by start time
};

struct RunMetadata {
  StepStats step_stats;
};

// Collects NodeExecStats from the executor's threads during one traced step.
class StepStatsCollector {
 public:
  StepStatsCollector();
  int64_t Now() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                                start_)
        .count();
  }
  // `outputs` are the node's output tensors; `timer` is its device timer, if any.
  void Record(const Node& node, const std::string& device, const Tensor* outputs, int n_outputs,
              int64_t start_ns, int64_t end_ns, std::unique_ptr<DeviceTimer> timer,
              const std::vector<std::string>* replaces = nullptr);
  // Once the devices have finished the step: reads the device timers and sorts.
  absl::Status Finish(StepStats* out);

 private:
  std::chrono::steady_clock::time_point start_;
  int64_t start_unix_us_;
  std::thread::id caller_;
  std::mutex mu_;
  std::vector<NodeExecStats> nodes_;
  std::vector<std::pair<size_t, std::unique_ptr<DeviceTimer>>> timers_;
  absl::flat_hash_map<std::thread::id, int> threads_;
};

// The traced step whose kernel is running on this thread (null: none), so that a function
// that kernel calls (If, While: runtime/function_runtime.cc) records its body's nodes in
// the same trace. The executor sets it around each kernel's Compute.
StepStatsCollector* CurrentStepStats();
class ScopedStepStats {
 public:
  explicit ScopedStepStats(StepStatsCollector* stats);
  ~ScopedStepStats();
  ScopedStepStats(const ScopedStepStats&) = delete;
  ScopedStepStats& operator=(const ScopedStepStats&) = delete;

 private:
  StepStatsCollector* saved_;
};

}  // namespace rill
