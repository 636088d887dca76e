#include "matmul_raw.h"

#include <chrono>
#include <vector>

#include "oneapi/dnnl/dnnl.h"
#ifdef RILL_WITH_CUDA
#include "rill/kernels/cuda/gpu_context.h"
#endif

namespace rill::bench {
namespace {

using Clock = std::chrono::steady_clock;

class OneDnnSgemm : public RawGemm {
 public:
  double TimeMs(const Tensor& a, const Tensor& b, int64_t n) override {
    c_.resize(n * n);
    auto t0 = Clock::now();
    dnnl_sgemm('N', 'N', n, n, n, 1.0f, a.base<float>(), n, b.base<float>(), n, 0.0f, c_.data(), n);
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  }
  std::string Name() const override { return "oneDNN sgemm"; }

 private:
  std::vector<float> c_;
};

#ifdef RILL_WITH_CUDA
class Cublas : public RawGemm {
 public:
  Cublas(std::shared_ptr<Device> gpu, bool tf32) : gpu_(std::move(gpu)), tf32_(tf32) {}
  double TimeMs(const Tensor& a, const Tensor& b, int64_t n) override {
    if (!a.SharesBufferWith(host_a_)) {  // upload once per pair of matrices
      host_a_ = a;
      if (!gpu_->CopyFromHost(a, &da_).ok() || !gpu_->CopyFromHost(b, &db_).ok()) return -1;
      dc_ = Tensor(gpu_->allocator(), DT_FLOAT, TensorShape({n, n}));
    }
    auto* g = gpu_->gpu_context();
    const float one = 1, zero = 0;
    auto t0 = Clock::now();
    cublasGemmEx(g->cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, db_.data(), CUDA_R_32F, n,
                 da_.data(), CUDA_R_32F, n, &zero, dc_.data(), CUDA_R_32F, n,
                 tf32_ ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    cudaStreamSynchronize(g->stream);
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  }
  std::string Name() const override { return tf32_ ? "cuBLAS (TF32)" : "cuBLAS"; }

 private:
  std::shared_ptr<Device> gpu_;
  bool tf32_;
  Tensor host_a_, da_, db_, dc_;
};
#endif

}  // namespace

std::unique_ptr<RawGemm> MakeRawGemm(const std::string& device_type, bool tf32) {
  if (device_type == "cpu") return std::make_unique<OneDnnSgemm>();
#ifdef RILL_WITH_CUDA
  DeviceSet set = DeviceSet::Local();
  for (const auto& d : set.devices()) {
    if (d->device_type() == DEVICE_GPU) return std::make_unique<Cublas>(d, tf32);
  }
#else
  (void)tf32;
#endif
  return nullptr;
}

}  // namespace rill::bench
