// Where the seeds' GPU training steps spend their time (issue 31's goals on an H100 or
// H200: the CIFAR-10 MLP's at most 0.10 ms, the MNIST CNN's at most 0.5). The steps are
// tests/support/model_steps.h's, built with ops as Keras composes them: the CIFAR MLP
// (3072-3000-1000-10 sigmoid, categorical cross-entropy, SGD, batch 32) and the MNIST
// CNN (conv 32, conv 64, dense 1024, Adam, batch 50). Called as Fit calls its step (the
// train op a target, nothing fetched, RunOptions::wait_for_devices = false). Counters,
// per step:
//   ms_per_step  20 steps queued back to back and the GPU drained (the manual time): what
//                Fit's loop sees
//   host_ms      the calls alone, 2 steps made while the GPU is held by a host callback
//                (the device queues at most 2 steps before a call waits for the oldest:
//                GpuDevice::ReleaseQueuedSteps)
//   gpu_ms       the GPU's time for those 2 steps once released (CUDA events on the
//                device's stream): the floor whatever the host does
//   held_out     1 when a call waited for the held GPU (host_ms then means nothing)
// Args: model (0 CIFAR MLP, 1 MNIST CNN), graphs (SessionOptions::cuda_graphs), tf32
// (SessionOptions::allow_tf32).
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "benchmark/benchmark.h"
#include "gpu_bench_device.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/rill.h"
#include "support/model_steps.h"

namespace {

using namespace rill;  // NOLINT
using bench::Gpu;
using Clock = std::chrono::steady_clock;

constexpr int kSteps = 20, kHeldSteps = 2;

struct Hold {
  std::atomic<bool> release{false};
  std::atomic<bool> timed_out{false};
};

// A host callback on the stream that returns once released (or after 300 ms, so that a
// call waiting for the GPU cannot hang the benchmark).
void CUDART_CB HoldTheStream(void* p) {
  auto* hold = static_cast<Hold*>(p);
  const auto until = Clock::now() + std::chrono::milliseconds(300);
  while (!hold->release.load()) {
    if (Clock::now() > until) {
      hold->timed_out = true;
      return;
    }
    std::this_thread::yield();
  }
}

// The GPU's time for `run` (a few queued steps), measured with the stream held while the
// host queues them; the host's time for the calls goes to `host_s`.
template <typename Run>
double HeldGpuMs(cudaStream_t stream, const Run& run, double* host_s, bool* held_out) {
  cudaEvent_t begin, end;
  cudaEventCreate(&begin);
  cudaEventCreate(&end);
  Hold hold;
  cudaLaunchHostFunc(stream, HoldTheStream, &hold);
  cudaEventRecord(begin, stream);
  auto t0 = Clock::now();
  run();
  *host_s += std::chrono::duration<double>(Clock::now() - t0).count();
  cudaEventRecord(end, stream);
  hold.release = true;
  cudaDeviceSynchronize();
  *held_out = *held_out || hold.timed_out;
  float ms = 0;
  cudaEventElapsedTime(&ms, begin, end);
  cudaEventDestroy(begin);
  cudaEventDestroy(end);
  return ms;
}

void BM_GpuTrainStep(benchmark::State& state) {
  if (Gpu() == nullptr) {
    state.SkipWithError("no GPU on this machine");
    return;
  }
  testing::TrainStep step = state.range(0) == 0 ? testing::CifarMlpStep(32, 3000, 1000)
                                                : testing::MnistCnnStep(50, 32, 64, 1024);
  SessionOptions options;
  options.cuda_graphs = state.range(1) != 0;
  options.allow_tf32 = state.range(2) != 0;
  Session session(step.scope, options);
  Session::CallableHandle handle = 0;
  if (!session.Run({}, {}, {step.init}, nullptr).ok() ||
      !session.MakeCallable(step.Signature(), &handle).ok()) {
    state.SkipWithError("building the step failed");
    return;
  }
  RunOptions run;
  run.wait_for_devices = false;
  const std::vector<Tensor> feeds = {step.x_value, step.y_value};
  std::vector<Tensor> out;
  auto steps = [&](int count) {
    for (int i = 0; i < count; ++i) (void)session.RunCallable(handle, feeds, &out, run, nullptr);
  };
  double host_s = 0, gpu_ms = 0;
  bool held_out = false;
  for (auto _ : state) {
    auto t0 = Clock::now();
    steps(kSteps);
    cudaDeviceSynchronize();
    state.SetIterationTime(std::chrono::duration<double>(Clock::now() - t0).count());
    gpu_ms += HeldGpuMs(
        Gpu()->gpu_context()->stream, [&] { steps(kHeldSteps); }, &host_s, &held_out);
  }
  const double n = static_cast<double>(state.iterations()), held = n * kHeldSteps;
  state.counters["host_ms"] = host_s * 1e3 / held;
  state.counters["gpu_ms"] = gpu_ms / held;
  state.counters["held_out"] = held_out ? 1 : 0;
  state.counters["ms_per_step"] =
      benchmark::Counter(n * kSteps, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  if (auto stats = session.GetStepGraphStats(handle); stats.ok()) {
    state.counters["replays"] = static_cast<double>(stats->replays);
  }
}
BENCHMARK(BM_GpuTrainStep)
    ->ArgsProduct({{0, 1}, {0, 1}, {0, 1}})
    ->ArgNames({"model", "graphs", "tf32"})
    ->UseManualTime()
    ->Iterations(30)
    ->Unit(benchmark::kMillisecond);

}  // namespace
