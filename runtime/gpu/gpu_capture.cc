// Recording a step as a CUDA graph (SessionOptions::cuda_graphs; runtime/step_graph.h).
//
// The recording runs on a stream of its own with cuBLAS and cuDNN handles of its own, so
// that work other threads enqueue on the device's stream meanwhile is neither recorded
// nor disturbed; the graph is then launched on the device's stream, in order with the
// step's copies. Memory the recorded kernels allocate comes from a pool of the graph's
// own (PyTorch's graph pools): every replay writes there again, so none of it may be
// handed to other work while the graph lives. cuBLAS gets a fixed workspace before any
// recording (its own would be allocated inside the capture). The capture mode is relaxed
// so that the pool may call cudaMalloc while recording; what would make the host wait
// (a sync, a copy to or from the host) is refused by the device instead.
//
// Random ops read their Philox counter from device memory while recorded
// (ReplayCounter); each launch first sets those counters by a small kernel whose
// parameters carry the values (as PyTorch's graph-safe generators fill their offset
// tensor before a replay), so replays draw what ordinary runs would, in stream order,
// with no host buffer that a launch still in flight could read.
#include <cstdio>

#include "rill/kernels/cuda/launch.h"
#include "rill/runtime/gpu/gpu_device.h"

namespace rill::gpu {

// A recorded step, the pool its memory came from, and its counters.
class CudaStepGraph final : public DeviceGraph {
 public:
  CudaStepGraph(GpuDevice* device, cudaGraphExec_t exec, std::shared_ptr<CachingAllocator> pool,
                Tensor counters, std::vector<std::function<uint64_t()>> counter_fns)
      : device_(device),
        exec_(exec),
        pool_(std::move(pool)),
        counters_(std::move(counters)),
        counter_fns_(std::move(counter_fns)),
        values_(counter_fns_.size()) {}
  ~CudaStepGraph() override {
    // A launch may still be running: the graph and its pool outlive it.
    (void)cudaStreamSynchronize(device_->context_.stream);
    (void)cudaGraphExecDestroy(exec_);
    (void)cudaGetLastError();
    counters_ = Tensor();
    device_->Retire(std::move(pool_));
  }
  absl::Status Launch() override {
    cudaStream_t stream = device_->context_.stream;
    if (!counter_fns_.empty()) {
      for (size_t i = 0; i < counter_fns_.size(); ++i) values_[i] = counter_fns_[i]();
      RILL_CUDA_CHECK(LaunchSetCounters(reinterpret_cast<uint64_t*>(counters_.base<int64_t>()),
                                        values_.data(), static_cast<int64_t>(values_.size()),
                                        stream));
    }
    RILL_CUDA_CHECK(cudaGraphLaunch(exec_, stream));
    return absl::OkStatus();
  }

 private:
  GpuDevice* device_;
  cudaGraphExec_t exec_;
  std::shared_ptr<CachingAllocator> pool_;
  Tensor counters_;
  std::vector<std::function<uint64_t()>> counter_fns_;
  std::vector<uint64_t> values_;
};

namespace {
constexpr size_t kCublasWorkspaceBytes = size_t{32} << 20;  // cuBLAS's advice for Hopper
constexpr int64_t kMaxReplayCounters = 1024;                // random ops in one recorded step
}  // namespace

absl::Status GpuDevice::MakeCaptureContext() {
  if (capture_context_.stream != nullptr) return absl::OkStatus();
  GpuContext c;
  c.device = context_.device;
  RILL_CUDA_CHECK(cudaSetDevice(c.device));
  RILL_CUDA_CHECK(cudaStreamCreateWithFlags(&c.stream, cudaStreamNonBlocking));
  c.copy_stream = context_.copy_stream;
  const CublasApi& blas = Cublas();  // loaded when this device was made
  RILL_CUDA_CHECK(blas.Create(&c.cublas));
  RILL_CUDA_CHECK(blas.SetStream(c.cublas, c.stream));
  RILL_CUDA_CHECK(blas.SetMathMode(c.cublas, CUBLAS_DEFAULT_MATH));
  RILL_CUDA_CHECK(cudaMalloc(&capture_workspace_, kCublasWorkspaceBytes));
  RILL_CUDA_CHECK(blas.SetWorkspace(c.cublas, capture_workspace_, kCublasWorkspaceBytes));
  RILL_CUDA_CHECK(cudnnCreate(&c.cudnn));
  RILL_CUDA_CHECK(cudnnSetStream(c.cudnn, c.stream));
  RILL_RETURN_IF_ERROR(WarmUpCublas(c));
  capture_context_ = c;
  return absl::OkStatus();
}

absl::Status GpuDevice::BeginCapture() {
  if (Recording()) return errors::FailedPrecondition(name(), " is recording a step already");
  capture_mu_.lock();
  absl::Status st = MakeCaptureContext();
  if (st.ok()) {
    capture_context_.allow_tf32 = context_.allow_tf32;
    capture_pool_ = std::make_shared<CachingAllocator>(absl::StrCat(name(), "_graph_pool"),
                                                       MakeCudaMemory(context_.device));
    st = CheckStatus(cudaStreamBeginCapture(capture_context_.stream, cudaStreamCaptureModeRelaxed),
                     "cudaStreamBeginCapture", __FILE__, __LINE__);
  }
  if (!st.ok()) {
    capture_pool_.reset();
    capture_mu_.unlock();
    return st;
  }
  capture_counters_ = Tensor();
  capture_counter_fns_.clear();
  capture_thread_.store(std::this_thread::get_id(), std::memory_order_relaxed);
  capturing_.store(true, std::memory_order_release);
  return absl::OkStatus();
}

absl::StatusOr<const uint64_t*> GpuDevice::ReplayCounter(std::function<uint64_t()> next) {
  if (!Recording()) return nullptr;
  const auto at = static_cast<int64_t>(capture_counter_fns_.size());
  if (at == kMaxReplayCounters) {
    return errors::ResourceExhausted("a step recorded on ", name(), " draws from more than ",
                                     kMaxReplayCounters, " random ops");
  }
  if (!capture_counters_.IsInitialized()) {
    capture_counters_ = Tensor(capture_pool_.get(), DT_INT64, TensorShape({kMaxReplayCounters}));
    if (!capture_counters_.IsInitialized()) {
      return errors::ResourceExhausted("no memory on ", name(), " for a recorded step's counters");
    }
  }
  capture_counter_fns_.push_back(std::move(next));
  return reinterpret_cast<const uint64_t*>(capture_counters_.base<int64_t>() + at);
}

absl::StatusOr<std::unique_ptr<DeviceGraph>> GpuDevice::EndCapture() {
  if (!Recording()) return errors::FailedPrecondition(name(), ": no recording on this thread");
  cudaGraph_t graph = nullptr;
  const cudaError_t e = cudaStreamEndCapture(capture_context_.stream, &graph);
  capturing_.store(false, std::memory_order_release);
  std::shared_ptr<CachingAllocator> pool = std::move(capture_pool_);
  Tensor counters = std::move(capture_counters_);
  std::vector<std::function<uint64_t()>> counter_fns = std::move(capture_counter_fns_);
  capture_counters_ = Tensor();
  capture_counter_fns_.clear();
  capture_mu_.unlock();
  cudaGraphExec_t exec = nullptr;
  cudaError_t made = e;
  if (made == cudaSuccess) made = cudaGraphInstantiate(&exec, graph, 0);
  if (graph != nullptr) (void)cudaGraphDestroy(graph);
  if (made != cudaSuccess) {
    (void)cudaGetLastError();  // a failed capture is not sticky: the device goes on
    counters = Tensor();
    Retire(std::move(pool));
    return CudaError(made, e != cudaSuccess ? "cudaStreamEndCapture" : "cudaGraphInstantiate",
                     __FILE__, __LINE__);
  }
  return std::unique_ptr<DeviceGraph>(
      new CudaStepGraph(this, exec, std::move(pool), std::move(counters), std::move(counter_fns)));
}

void GpuDevice::Retire(std::shared_ptr<CachingAllocator> pool) {
  if (pool->GetStats().bytes_in_use == 0) return;  // freed with its last reference
  std::lock_guard<std::mutex> lock(retired_mu_);
  retired_pools_.push_back(std::move(pool));
}

absl::Status GpuDevice::CopyInto(const Tensor& src, const Tensor& dst) {
  if (src.dtype() != dst.dtype() || src.TotalBytes() != dst.TotalBytes()) {
    return Device::CopyInto(src, dst);  // its error
  }
  if (src.TotalBytes() == 0) return absl::OkStatus();
  RILL_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), src.TotalBytes(),
                                  cudaMemcpyDeviceToDevice, gpu_context()->stream));
  return absl::OkStatus();
}

absl::Status GpuDevice::RefuseWhileRecording(const char* what) const {
  if (!Recording()) return absl::OkStatus();
  return errors::FailedPrecondition(what, " on ", name(),
                                    " cannot be part of a recorded step (a CUDA graph)");
}

}  // namespace rill::gpu
