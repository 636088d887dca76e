// The collective ops' kernels: each states its collective, hands the data movement to the
// engine's thread and returns (AsyncOpKernel), so the executor runs other nodes meanwhile.
// On a GPU the data stays in the GPU's memory: NCCL moves it, or it is staged through
// pinned host memory for MPI (runtime/dist/gpu/).
#include "rill/core/async_kernel.h"
#include "rill/runtime/dist/collectives.h"
#include "rill/runtime/dist/gpu_place.h"
#include "rill/runtime/dist/world.h"

namespace rill::dist {
namespace {

class CollectiveKernel : public AsyncOpKernel {
 public:
  CollectiveKernel(OpKernelConstruction& c, CollectiveKind kind) : AsyncOpKernel(c), kind_(kind) {
    const Node& n = c.node();
    if (kind == CollectiveKind::kAllReduce) mean_ = n.attr<std::string>("reduction") == "mean";
    if (kind == CollectiveKind::kBroadcast || kind == CollectiveKind::kBroadcastGrad) {
      root_ = n.attr<int64_t>("root_rank");
    }
  }

  void ComputeAsync(OpKernelContext& ctx, Tensor* outputs, DoneCallback done) override {
    absl::StatusOr<Engine*> found = EngineForKernel();
    if (!found.ok()) return done(found.status());
    Engine* engine = *found;
    const Tensor& in = ctx.input(0);
    CollectiveSpec spec{kind_, node().name(), in.dtype(), in.shape(), root_, 0};
    const std::string what =
        absl::StrCat(KindWord(), " of ", DataTypeString(in.dtype()), " ", in.shape().DebugString());
    if (kind_ == CollectiveKind::kAllGather || kind_ == CollectiveKind::kAllGatherGrad) {
      const Tensor& rows_of = kind_ == CollectiveKind::kAllGather ? in : ctx.input(1);
      bool fits = in.dims() > 0 && rows_of.dims() == in.dims();
      for (int d = 1; fits && d < in.dims(); ++d) fits = in.dim_size(d) == rows_of.dim_size(d);
      if (!fits) {
        return done(errors::InvalidArgument(
            "needs a tensor of rank >= 1 (and a gradient whose rows are x's rows), got ",
            in.shape().DebugString(), kind_ == CollectiveKind::kAllGather ? "" : " and x ",
            kind_ == CollectiveKind::kAllGather ? "" : rows_of.shape().DebugString()));
      }
      spec.rows = rows_of.dim_size(0);
    }
    Tensor* out = nullptr;
    if (kind_ != CollectiveKind::kAllGather) {
      TensorShape shape = in.shape();
      if (kind_ == CollectiveKind::kAllGatherGrad) shape = ctx.input(1).shape();
      absl::Status st = kind_ == CollectiveKind::kAllReduce
                            ? ctx.forward_or_allocate_output(0, 0, shape, &out)
                            : ctx.allocate_output(0, shape, &out);
      if (!st.ok()) return done(st);
    }
    // Made after the output: on a GPU it marks where the kernel's inputs (and whatever last
    // used the output's memory) are queued on the device's stream.
    absl::StatusOr<std::shared_ptr<DataPlace>> place = PlaceOf(ctx);
    if (!place.ok()) return done(place.status());
    if (kind_ == CollectiveKind::kAllGather) {
      return engine->Submit(
          what,
          [spec, in, outputs, place = *std::move(place)](Comm& c) -> absl::Status {
            RILL_ASSIGN_OR_RETURN(outputs[0], AllGather(c, *place, spec, in));
            return absl::OkStatus();
          },
          std::move(done));
    }
    engine->Submit(what, Work(spec, in, *out, *std::move(place)), std::move(done));
  }

 private:
  const char* KindWord() const {
    switch (kind_) {
      case CollectiveKind::kAllReduce:
        return mean_ ? "allreduce (mean)" : "allreduce (sum)";
      case CollectiveKind::kBroadcast:
        return "broadcast";
      case CollectiveKind::kAllGather:
        return "allgather";
      case CollectiveKind::kBroadcastGrad:
        return "broadcast's gradient";
      case CollectiveKind::kAllGatherGrad:
        return "allgather's gradient";
      case CollectiveKind::kReplicaUpdate:
        return "allreduce of updated weights";
    }
    return "collective";
  }

  // Host memory, or the GPU's (gpu_place.h). One HostPlace serves every host collective, so
  // a call allocates none: only the engine's thread uses it, one collective at a time.
  static absl::StatusOr<std::shared_ptr<DataPlace>> PlaceOf(OpKernelContext& ctx) {
    if (ctx.device()->gpu_context() != nullptr) return MakeGpuPlace(ctx);
    static const std::shared_ptr<DataPlace>* host = new std::shared_ptr<DataPlace>(
        std::make_shared<HostPlace>());  // never destroyed: the engine may outlive statics
    return *host;
  }

  Engine::Work Work(const CollectiveSpec& spec, const Tensor& in, const Tensor& out,
                    std::shared_ptr<DataPlace> place) const {
    const bool mean = mean_;
    switch (kind_) {
      case CollectiveKind::kAllReduce:
        return [spec, in, out, mean, place](Comm& c) {
          return AllReduce(c, *place, spec, in, out, mean);
        };
      case CollectiveKind::kBroadcast:
        return [spec, in, out, place](Comm& c) { return Broadcast(c, *place, spec, in, out); };
      case CollectiveKind::kBroadcastGrad:
        return [spec, in, out, place](Comm& c) { return BroadcastGrad(c, *place, spec, in, out); };
      default:
        return [spec, in, out, place](Comm& c) { return AllGatherGrad(c, *place, spec, in, out); };
    }
  }

  CollectiveKind kind_;
  bool mean_ = false;
  int64_t root_ = 0;
};

template <CollectiveKind kKind>
class Collective : public CollectiveKernel {
 public:
  explicit Collective(OpKernelConstruction& c) : CollectiveKernel(c, kKind) {}
};

using AllReduceKernel = Collective<CollectiveKind::kAllReduce>;
using BroadcastKernel = Collective<CollectiveKind::kBroadcast>;
using AllGatherKernel = Collective<CollectiveKind::kAllGather>;
using BroadcastGradKernel = Collective<CollectiveKind::kBroadcastGrad>;
using AllGatherGradKernel = Collective<CollectiveKind::kAllGatherGrad>;

// The same kernel on the CPU and on a GPU, over the device's own memory.
#define RILL_REGISTER_COLLECTIVE_CPU(T, op, K) \
  RILL_REGISTER_KERNEL(op, DEVICE_CPU, "T", DataTypeToEnum<T>::value, K);
#define RILL_REGISTER_COLLECTIVE_GPU(T, op, K) \
  RILL_REGISTER_KERNEL(op, DEVICE_GPU, "T", DataTypeToEnum<T>::value, K);
#if RILL_WITH_CUDA
#define RILL_REGISTER_COLLECTIVE(T, op, K) \
  RILL_REGISTER_COLLECTIVE_CPU(T, op, K) RILL_REGISTER_COLLECTIVE_GPU(T, op, K)
#else
#define RILL_REGISTER_COLLECTIVE(T, op, K) RILL_REGISTER_COLLECTIVE_CPU(T, op, K)
#define RILL_REGISTER_COLLECTIVE_GPU(T, op, K)
#endif

// Every dtype on the CPU; on a GPU the GPU kernels' dtypes (NCCL has no 16-bit integers,
// and the GPU's mean divides those five): the others run on the host.
RILL_FOR_NUMBER_TYPES(RILL_REGISTER_COLLECTIVE_CPU, "CollectiveAllReduce", AllReduceKernel)
RILL_FOR_ALL_TYPES(RILL_REGISTER_COLLECTIVE_CPU, "CollectiveBroadcast", BroadcastKernel)
RILL_FOR_ALL_TYPES(RILL_REGISTER_COLLECTIVE_CPU, "CollectiveAllGather", AllGatherKernel)
RILL_FOR_GPU_NUMBER_TYPES(RILL_REGISTER_COLLECTIVE_GPU, "CollectiveAllReduce", AllReduceKernel)
RILL_FOR_GPU_ALL_TYPES(RILL_REGISTER_COLLECTIVE_GPU, "CollectiveBroadcast", BroadcastKernel)
RILL_FOR_GPU_ALL_TYPES(RILL_REGISTER_COLLECTIVE_GPU, "CollectiveAllGather", AllGatherKernel)
RILL_FOR_FLOAT_TYPES(RILL_REGISTER_COLLECTIVE, "_CollectiveBroadcastGrad", BroadcastGradKernel)
RILL_FOR_FLOAT_TYPES(RILL_REGISTER_COLLECTIVE, "_CollectiveAllGatherGrad", AllGatherGradKernel)

}  // namespace
}  // namespace rill::dist
