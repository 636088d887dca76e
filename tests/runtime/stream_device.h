// A fake device that records as a CUDA stream does, for graph-mode tests on machines
// without a GPU (tests/runtime/step_graph*_test.cc): its kernels enqueue their work, which
// runs at once, or is only recorded while the thread records, to run at each launch with
// the addresses it was recorded with. Its memory is host memory marked as a device's.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "rill/core/kernel_util.h"
#include "rill/core/philox.h"
#include "rill/ops/state_ops.h"
#include "runtime/fake_device.h"
#include "test_util.h"

namespace rill::testing {

inline constexpr char kStream[] = "FAKE_STREAM";

class StreamDevice final : public Device {
 public:
  StreamDevice() : Device(kStream, 0, nullptr), memory_("stream", Memory()) {}

  Allocator* allocator() const override {
    return Recording() ? pool_.get() : const_cast<CachingAllocator*>(&memory_);
  }
  // The device's stream: work runs now, or is recorded while this thread records.
  void Enqueue(std::function<void()> work) {
    if (Recording()) {
      recorded_.push_back(std::move(work));
    } else {
      work();
    }
  }

  bool CanCapture() const override { return true; }
  absl::Status BeginCapture() override {
    if (refuse_recording) return errors::Unavailable("this device was told to refuse");
    pool_ = std::make_shared<CachingAllocator>("stream_graph_pool", Memory());
    recorder_ = std::this_thread::get_id();
    return absl::OkStatus();
  }
  absl::StatusOr<std::unique_ptr<DeviceGraph>> EndCapture() override {
    recorder_ = std::thread::id();
    pools_.push_back(pool_);  // kept: a replay writes there
    return std::unique_ptr<DeviceGraph>(
        new Recorded(this, std::move(recorded_), std::exchange(counters_, {})));
  }
  absl::Status CopyInto(const Tensor& src, const Tensor& dst) override {
    if (src.TotalBytes() != dst.TotalBytes()) return errors::Internal("CopyInto: sizes differ");
    const void* from = src.data();
    void* to = dst.data();
    const size_t n = src.TotalBytes();
    Enqueue([=] { std::memcpy(to, from, n); });
    return absl::OkStatus();
  }
  absl::Status CopyFromHost(const Tensor& src, Tensor* dst) override {
    if (Recording()) return errors::FailedPrecondition("an upload while recording");
    RILL_ASSIGN_OR_RETURN(*dst, Tensor::Create(src.dtype(), src.shape(), allocator()));
    std::memcpy(dst->data(), src.data(), src.TotalBytes());
    return absl::OkStatus();
  }
  absl::Status CopyToHost(const Tensor& src, Tensor* dst) override {
    if (Recording()) return errors::FailedPrecondition("a download while recording");
    RILL_ASSIGN_OR_RETURN(*dst, Tensor::Create(src.dtype(), src.shape()));
    std::memcpy(dst->data(), src.data(), src.TotalBytes());
    return absl::OkStatus();
  }
  absl::Status CopyToHostAsync(const Tensor& src, Tensor* dst) override {
    return CopyToHost(src, dst);
  }
  // Device memory here is host memory: a counter the launches set before the work runs.
  absl::StatusOr<const uint64_t*> ReplayCounter(std::function<uint64_t()> next) override {
    if (!Recording()) return nullptr;
    counters_.push_back(Counter{std::move(next), std::make_shared<uint64_t>(0)});
    return counters_.back().at.get();
  }

  bool refuse_recording = false;
  int launches = 0;

 private:
  struct Counter {
    std::function<uint64_t()> next;
    std::shared_ptr<uint64_t> at;
  };
  class Recorded final : public DeviceGraph {
   public:
    Recorded(StreamDevice* d, std::vector<std::function<void()>> work,
             std::vector<Counter> counters)
        : device_(d), work_(std::move(work)), counters_(std::move(counters)) {}
    absl::Status Launch() override {
      ++device_->launches;
      for (const Counter& c : counters_) *c.at = c.next();
      for (const auto& w : work_) w();
      return absl::OkStatus();
    }

   private:
    StreamDevice* device_;
    std::vector<std::function<void()>> work_;
    std::vector<Counter> counters_;
  };
  static std::unique_ptr<DeviceMemory> Memory() { return std::make_unique<FakeMemory>(64 << 20); }
  bool Recording() const { return recorder_ == std::this_thread::get_id(); }

  CachingAllocator memory_;
  std::shared_ptr<CachingAllocator> pool_;
  std::vector<std::shared_ptr<CachingAllocator>> pools_;
  std::thread::id recorder_;
  std::vector<std::function<void()>> recorded_;
  std::vector<Counter> counters_;
};

inline StreamDevice* StreamOf(const OpKernelContext& ctx) {
  return static_cast<StreamDevice*>(static_cast<Device*>(ctx.device()));
}

// out = a b, row-major, enqueued.
class StreamMatMul : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor &a = ctx.input(0), &b = ctx.input(1);
    const int64_t m = a.dim_size(0), k = a.dim_size(1), n = b.dim_size(1);
    if (b.dim_size(0) != k) return errors::InvalidArgument("inner dimensions differ");
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({m, n}), &out));
    const float *pa = a.base<float>(), *pb = b.base<float>();
    float* po = out->base<float>();
    StreamOf(ctx)->Enqueue([=] {
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          float acc = 0;
          for (int64_t q = 0; q < k; ++q) acc += pa[i * k + q] * pb[q * n + j];
          po[i * n + j] = acc;
        }
      }
    });
    return absl::OkStatus();
  }
};

inline Var* StreamVarOfRef(OpKernelConstruction& c) {
  const Node& v = *c.node().input(0).node;
  return c.resources()->LookupOrCreateVar(v.name(), v.output_type(0), v.output_shape(0));
}

// var -= lr * delta in place, enqueued.
class StreamApplyGradientDescent : public OpKernel {
 public:
  explicit StreamApplyGradientDescent(OpKernelConstruction& c)
      : OpKernel(c), var_(StreamVarOfRef(c)) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    std::lock_guard<std::mutex> lock(var_->mu());
    Tensor& w = var_->value();
    const Tensor& delta = ctx.input(2);
    if (!w.IsInitialized() || w.shape() != delta.shape()) return errors::InvalidArgument("shapes");
    float* pw = w.base<float>();
    const float *lr = ctx.input(1).base<float>(), *pd = delta.base<float>();
    const int64_t n = w.NumElements();
    StreamOf(ctx)->Enqueue([=] {
      for (int64_t i = 0; i < n; ++i) pw[i] -= *lr * pd[i];
    });
    ctx.set_output(0, w);
    return absl::OkStatus();
  }

 private:
  Var* var_;
};

// Gives the variable a new buffer every time (as TensorFlow's Assign may), filled on the
// stream.
class StreamAssign : public OpKernel {
 public:
  explicit StreamAssign(OpKernelConstruction& c) : OpKernel(c), var_(StreamVarOfRef(c)) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& value = ctx.input(1);
    Tensor fresh(ctx.device()->allocator(), value.dtype(), value.shape());
    RILL_RETURN_IF_ERROR(static_cast<Device*>(ctx.device())->CopyInto(value, fresh));
    std::lock_guard<std::mutex> lock(var_->mu());
    var_->value() = fresh;
    ctx.set_output(0, fresh);
    return absl::OkStatus();
  }

 private:
  Var* var_;
};

// RandomUniform's floats (kernels/cpu/random_ops.cc's numbers), enqueued; while recorded,
// the first block's counter is read from the device at each launch.
class StreamUniform : public RandomKernelBase {
 public:
  explicit StreamUniform(OpKernelConstruction& c) : RandomKernelBase(c) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const RandomDraw draw, Prepare(ctx, &out));
    float* o = out->base<float>();
    const int64_t n = out->NumElements();
    const uint64_t key = this->key();
    StreamOf(ctx)->Enqueue([=] {
      const uint64_t base = draw.recorded != nullptr ? *draw.recorded : draw.base;
      for (int64_t i = 0; i < n; ++i) o[i] = random::ToFloat(random::Philox(key, 0, base + i)[0]);
    });
    return absl::OkStatus();
  }
  bool AdvancesThroughReplayCounters() const override { return true; }
};

// SparseSoftmaxCrossEntropyWithLogits, enqueued: the labels (a host-memory input) are
// checked by the CPU kernel's rule and read on the device through the checked upload, as
// the GPU kernel does.
class StreamSparseXent : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor *loss, *bp;
    RILL_ASSIGN_OR_RETURN(XentGeometry geo, PrepareXent(ctx, true, &loss, &bp));
    const int64_t rows = geo.batch, cols = geo.classes;
    RILL_ASSIGN_OR_RETURN(Tensor ids, ctx.UploadCheckedHostInput(1, [cols](const Tensor& l) {
      return CheckSparseLabels(l, cols);
    }));
    if (ids.dtype() != DT_INT32) return errors::Unimplemented("int32 labels only here");
    const float* f = ctx.input(0).base<float>();
    const int32_t* id = ids.base<int32_t>();
    float *pl = loss->base<float>(), *pb = bp->base<float>();
    StreamOf(ctx)->Enqueue([=] {
      for (int64_t r = 0; r < rows; ++r) {
        const float* row = f + r * cols;
        double top = row[0], sum = 0;
        for (int64_t c = 1; c < cols; ++c) top = std::max<double>(top, row[c]);
        for (int64_t c = 0; c < cols; ++c) sum += std::exp(row[c] - top);
        pl[r] = static_cast<float>(top + std::log(sum) - row[id[r]]);
        for (int64_t c = 0; c < cols; ++c) {
          pb[r * cols + c] = static_cast<float>(std::exp(row[c] - top) / sum - (c == id[r]));
        }
      }
    });
    return absl::OkStatus();
  }
  bool UploadsCheckedHostInput(int input) const override { return input == 1; }
};

// Tile of a matrix, enqueued: each output element's source index is computed on the host
// from the shapes and the multiples (a host-memory input) and uploaded as a value fixed
// for a recording, as the GPU's resize taps and segment offsets are.
class StreamTile : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& multiples = ctx.input(1);
    if (x.dims() != 2 || multiples.NumElements() != 2 || multiples.dtype() != DT_INT32) {
      return errors::InvalidArgument("a matrix and two int32 multiples here");
    }
    const int64_t r = x.dim_size(0), c = x.dim_size(1);
    const int64_t mr = multiples.base<int32_t>()[0], mc = multiples.base<int32_t>()[1];
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({r * mr, c * mc}), &out));
    Tensor from(DT_INT64, out->shape());
    int64_t* f = from.base<int64_t>();
    for (int64_t i = 0; i < r * mr; ++i) {
      for (int64_t j = 0; j < c * mc; ++j) f[i * c * mc + j] = (i % r) * c + j % c;
    }
    RILL_ASSIGN_OR_RETURN(Tensor table, ctx.UploadHostValue(from));
    const float* px = x.base<float>();
    const int64_t* pt = table.base<int64_t>();
    float* po = out->base<float>();
    const int64_t n = out->NumElements();
    StreamOf(ctx)->Enqueue([=] {
      for (int64_t i = 0; i < n; ++i) po[i] = px[pt[i]];
    });
    return absl::OkStatus();
  }
};

class StreamNothing : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext&) override { return absl::OkStatus(); }
};

inline void RegisterStreamKernels() {
  static const bool once = [] {
    auto add = [](const char* op, KernelFactory f, std::vector<int> host_inputs = {}) {
      KernelRegistry::Global()->Register(
          {op, kStream, "", DT_INVALID, std::move(f), std::move(host_inputs), false});
    };
    add("MatMul", MakeKernel<StreamMatMul>);
    add("ApplyGradientDescent", MakeKernel<StreamApplyGradientDescent>);
    add("Assign", MakeKernel<StreamAssign>);
    add("Variable", MakeKernel<StreamNothing>);
    add("NoOp", MakeKernel<StreamNothing>);
    add("RandomUniform", MakeKernel<StreamUniform>, {0});
    add("SparseSoftmaxCrossEntropyWithLogits", MakeKernel<StreamSparseXent>, {1});
    add("Tile", MakeKernel<StreamTile>, {1});
    // Shape as a GPU has it: computed on the host from metadata, its value in host memory.
    const std::vector<KernelDef> shape_defs = KernelRegistry::Global()->DefsFor("Shape");
    for (KernelDef d : shape_defs) {
      if (d.device_type != DEVICE_CPU) continue;
      d.device_type = kStream;
      d.host_memory_outputs = true;
      KernelRegistry::Global()->Register(std::move(d));
    }
    return true;
  }();
  (void)once;
}

// A float matrix transposed (the x^T the tests' SGD steps are fed).
inline Tensor TransposedMatrix(const Tensor& t) {
  const auto v = ToDoubles(t);
  const int64_t r = t.dim_size(0), c = t.dim_size(1);
  std::vector<double> out(v.size());
  for (int64_t i = 0; i < r; ++i) {
    for (int64_t j = 0; j < c; ++j) out[j * r + i] = v[i * c + j];
  }
  return FromDoubles(DT_FLOAT, {c, r}, out);
}

// A Session on this process's devices (a GPU's tests) with graph mode on or off, its
// variables initialized, and a callable of `sig` in *h.
inline std::unique_ptr<Session> TrainingSession(const Scope& s, bool graphs,
                                                const CallableOptions& sig,
                                                Session::CallableHandle* h) {
  SessionOptions o;
  o.cuda_graphs = graphs;
  auto session = std::make_unique<Session>(s, o);
  EXPECT_TRUE(session->Run({}, {}, {ops::GlobalVariablesInitializer(s)}, nullptr).ok());
  EXPECT_TRUE(session->MakeCallable(sig, h).ok());
  return session;
}

inline DeviceSet StreamAndCpu(std::shared_ptr<StreamDevice> d) {
  DeviceSet set;
  set.Add(std::move(d));
  for (const auto& c : CpuOnly().devices()) set.Add(c);
  return set;
}
}  // namespace rill::testing
