// _MatMulAllReduceApplyGradientDescent's kernel (ops/training_ops.cc), host memory. On the
// engine's thread, once every rank has stated the collective, one of two ways
// (dist::UpdateReplicas, collectives.h), alike on every rank:
// - sum: this rank's GEMM into its variable (rank 0: var -= alpha op(a) op(b), as
//   _MatMulApplyGradientDescent; the others: var = -alpha op(a) op(b)), then one allreduce
//   in place. Every rank ends with rank 0's updated variable plus the others' terms.
// - rows, for a weight gradient a^T b whose factors are smaller than it (a batch of 256
//   against the CIFAR MLP's 3072 x 3000 weights): the ranks' a and b gathered, each rank
//   updates its slice of the rows with the whole batch's product, and the slices are
//   gathered. Each row ends as its rank's row minus the summed update.
// - shared, the rows way for ranks on one host: after a rows way the ranks move the weight
//   into one copy in shared memory (node_segment.h), and from then on each rank writes its
//   rows there and a barrier replaces the rows' gather. The kernel keeps a reference of
//   its own to that copy, so every other writer of the variable (Assign, a restore, another
//   optimizer) finds it shared and writes a private copy instead; a rank whose copy a
//   reader still holds (a fetched weight) updates a private copy too. Either makes every
//   rank leave the shared copy for that step (the ways are chosen from every rank's
//   statement), and the next move into shared memory waits 1, 3, 7, ... up to 63 steps.
// With replicas each is the update of the summed gradient, with no gradient stored and no
// pass over the weights after the collective.
#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

#include "absl/strings/str_cat.h"
#include "rill/core/apply_util.h"
#include "rill/core/async_kernel.h"
#include "rill/core/kernel_util.h"
#include "rill/kernels/cpu/gemm.h"
#include "rill/runtime/dist/collectives.h"
#include "rill/runtime/dist/node_segment.h"
#include "rill/runtime/dist/world.h"

namespace rill::dist {
namespace {

// What the engine's thread needs; it lets go of the buffers before the kernel is done, so
// the next step's update finds the variable's buffer unshared (no copy on write).
template <typename T>
struct ReplicaUpdate {
  Tensor var, a, b;
  T alpha;
  bool ta, tb;
  MatMulGeometry geo;
  int64_t segment = 0;       // what this rank states (Sharing::Stated)
  bool had_segment = false;  // whether the ranks had a shared copy at the step's start

  absl::Status Fill(bool root) const {
    T* out = var.base<T>();
    const int64_t m = geo.m, n = geo.n, k = geo.k;
    if (m == 0 || n == 0) return absl::OkStatus();
    if (k == 0) {  // the product is zero
      if (!root) std::fill(out, out + m * n, T(0));
      return absl::OkStatus();
    }
    return cpu::Gemm<T>(ta, tb, m, n, k, -alpha, a.base<T>(), a.dim_size(1), b.base<T>(),
                        b.dim_size(1), root ? T(1) : T(0), out, n);
  }

  // var[row0 : row0 + count] -= alpha a_all[:, row0 : row0 + count]^T b_all, over every
  // rank's rows of a = [k, m] and b = [k, n] (transpose_a only).
  absl::Status FillRows(const Tensor& a_all, const Tensor& b_all, int64_t row0,
                        int64_t count) const {
    const int64_t m = geo.m, n = geo.n, k = a_all.dim_size(0);
    if (count == 0 || n == 0 || k == 0) return absl::OkStatus();
    return cpu::Gemm<T>(true, false, count, n, k, -alpha, a_all.base<T>() + row0, m,
                        b_all.base<T>(), n, T(1), var.base<T>() + row0 * n, n);
  }

  // Whether the product's factors hold the batch as rows (a weight gradient): then they
  // can be gathered instead of the product summed.
  bool Gatherable() const { return ta && !tb; }
};

// The shared copy of one variable (UpdateReplicas's shared way), one per variable and
// session, whichever of the session's plans runs the update. Every field changes only on
// outcomes all ranks see alike (the ways chosen, a segment mapped or refused), so every
// rank's Sharing is the same and their statements agree.
struct Sharing : ResourceBase {
  std::mutex mu;
  Tensor segment;      // the shared copy, while the ranks use one
  int64_t number = 0;  // how many segments this node has mapped: the current one's number
  int64_t wait = 0;    // steps before the ranks may map another
  int64_t backoff = 0;
  bool off = false;  // the host cannot give the ranks shared memory

  // What this rank states (CollectiveSpec::segment); `var` is the variable's value after
  // ApplyVars::Prepare, which copied it if a reader held it. The caller holds mu. While the
  // ranks hold a segment, a new one is never mapped (so the variable is only ever in a
  // segment this Sharing holds, and every other writer copies).
  int64_t Stated(const Tensor& var) const {
    if (segment.IsInitialized()) return var.SharesBufferWith(segment) ? number : -1;
    return off || wait > 0 ? -1 : 0;
  }

  // After a step: the ranks that had a shared copy at its start (`had`) and did not use it
  // let it go, and wait longer each time before mapping another.
  void After(bool had, ReplicaWay way) {
    std::lock_guard<std::mutex> lock(mu);
    if (had && way != ReplicaWay::kShared) {
      segment = Tensor();
      backoff = std::min<int64_t>(2 * backoff + 1, 63);
      wait = backoff;
    } else if (wait > 0) {
      --wait;
    }
  }
};

// UpdateReplicas's leave: the variable, still in the shared copy, gets a private one, which
// this step updates instead (*value, the update's buffer, is replaced by it).
absl::StatusOr<Tensor> Leave(Sharing& sharing, Var& var, Tensor* value) {
  std::lock_guard<std::mutex> shared(sharing.mu);
  std::lock_guard<std::mutex> lock(var.mu());
  Tensor copy(cpu_allocator(), value->dtype(), value->shape());
  if (copy.data() == nullptr && value->TotalBytes() > 0) {
    return errors::ResourceExhausted("cannot copy variable '", var.name(), "' ",
                                     value->shape().DebugString(), " out of shared memory");
  }
  std::memcpy(copy.data(), value->data(), value->TotalBytes());
  if (var.value().SharesBufferWith(*value)) var.value() = copy;
  *value = copy;
  return copy;
}

// UpdateReplicas's adopt, on every rank of one host after a rows way (every rank's
// `value` is then the same): one shared copy mapped, each rank copies its rows into it,
// and the variable moves there. A host that cannot share turns the shared way off.
absl::Status Adopt(Comm& comm, Sharing& sharing, Var& var, const Tensor& value, int64_t row0,
                   int64_t count, bool ready) {
  absl::StatusOr<Tensor> segment = MapNodeSegment(comm, value.dtype(), value.shape(), ready);
  if (absl::IsUnavailable(segment.status())) {
    std::lock_guard<std::mutex> shared(sharing.mu);
    sharing.off = true;
    return absl::OkStatus();
  }
  RILL_RETURN_IF_ERROR(segment.status());
  const int64_t row_bytes = value.dim_size(1) * DataTypeSize(value.dtype());
  std::memcpy(static_cast<char*>(segment->data()) + row0 * row_bytes,
              static_cast<const char*>(value.data()) + row0 * row_bytes, count * row_bytes);
  RILL_RETURN_IF_ERROR(NodeBarrier(comm));
  std::lock_guard<std::mutex> shared(sharing.mu);
  std::lock_guard<std::mutex> lock(var.mu());
  // A variable assigned meanwhile keeps its new value (and states it next step).
  if (var.value().SharesBufferWith(value)) var.value() = *segment;
  sharing.segment = *std::move(segment);
  ++sharing.number;
  return absl::OkStatus();
}

template <typename T>
class MatMulAllReduceApplyGradientDescentOp : public AsyncOpKernel {
 public:
  explicit MatMulAllReduceApplyGradientDescentOp(OpKernelConstruction& c)
      : AsyncOpKernel(c),
        vars_(c, 1),
        var_(vars_.var(0)),
        sharing_(static_cast<Sharing*>(
            c.resources()->LookupOrCreate("_replica_sharing/" + c.node().input(0).node->name(),
                                          [] { return std::make_unique<Sharing>(); }))),
        ta_(c.node().attr<bool>("transpose_a")),
        tb_(c.node().attr<bool>("transpose_b")) {}
  bool IsExpensive() const override { return true; }

  void ComputeAsync(OpKernelContext& ctx, Tensor* /*outputs*/, DoneCallback done) override {
    absl::StatusOr<Engine*> engine = EngineForKernel();
    if (!engine.ok()) return done(engine.status());
    absl::StatusOr<std::shared_ptr<ReplicaUpdate<T>>> update = Prepare(ctx);
    if (!update.ok()) return done(update.status());
    ctx.set_output(0, (*update)->var);
    const ReplicaUpdate<T>& up = **update;
    const CollectiveSpec spec{CollectiveKind::kReplicaUpdate,
                              node().name(),
                              DataTypeToEnum<T>::value,
                              up.var.shape(),
                              0,
                              up.Gatherable() ? up.geo.k : 0,
                              up.Gatherable() ? 1 : 0,
                              up.segment};
    const std::string what = absl::StrCat("update of the replicas' weights ",
                                          spec.shape.DebugString(), " of ", node().name());
    (*engine)->Submit(
        what,
        [spec, u = *std::move(update), var = var_, sharing = sharing_](Comm& c) mutable {
          ReplicaWay way = ReplicaWay::kSum;
          ReplicaFills fills;
          fills.sum = [&](bool root) { return u->Fill(root); };
          fills.rows = [&](const Tensor& a, const Tensor& b, int64_t row0, int64_t count) {
            return u->FillRows(a, b, row0, count);
          };
          fills.leave = [&] { return Leave(*sharing, *var, &u->var); };
          fills.adopt = [&](Comm& comm, int64_t row0, int64_t count, bool ready) {
            return Adopt(comm, *sharing, *var, u->var, row0, count, ready);
          };
          fills.taken = &way;
          absl::Status st = UpdateReplicas(c, Host(), spec, u->var, u->a, u->b, fills);
          sharing->After(u->had_segment, way);
          u.reset();
          return st;
        },
        std::move(done));
  }

 private:
  // The inputs checked and the variable made this kernel's to write (ApplyVars: locked,
  // checked, copied if a reader still holds its value).
  absl::StatusOr<std::shared_ptr<ReplicaUpdate<T>>> Prepare(OpKernelContext& ctx) {
    RILL_RETURN_IF_ERROR(ScalarShapeCheck(ctx, {1}));
    RILL_ASSIGN_OR_RETURN(MatMulGeometry geo, FusedUpdateGeometry(ctx, ta_, tb_));
    VarLocks locks;
    VarValues v;
    std::lock_guard<std::mutex> shared(sharing_->mu);  // before the variable's, as in Leave
    const Tensor& own = sharing_->segment;             // the kernel's reference, if any
    RILL_RETURN_IF_ERROR(vars_.Prepare(ctx, TensorShape({geo.m, geo.n}), &locks, &v,
                                       own.IsInitialized() ? &own : nullptr));
    auto u = std::make_shared<ReplicaUpdate<T>>();
    u->segment = sharing_->Stated(*v[0]);
    u->had_segment = own.IsInitialized();
    u->var = *v[0];
    u->a = ctx.input(2);
    u->b = ctx.input(3);
    u->alpha = ctx.input(1).base<T>()[0];
    u->ta = ta_;
    u->tb = tb_;
    u->geo = geo;
    return u;
  }

  // One HostPlace for every such update: only the engine's thread uses it, one at a time.
  static DataPlace& Host() {
    static HostPlace* host = new HostPlace;  // never destroyed: the engine may outlive statics
    return *host;
  }

  ApplyVars vars_;
  Var* var_;
  Sharing* sharing_;  // the session's, like var_
  bool ta_, tb_;
};

#define RILL_REGISTER_REPLICA_UPDATE(T)                                         \
  RILL_REGISTER_KERNEL("_MatMulAllReduceApplyGradientDescent", DEVICE_CPU, "T", \
                       DataTypeToEnum<T>::value, MatMulAllReduceApplyGradientDescentOp<T>);
RILL_REGISTER_REPLICA_UPDATE(float)
RILL_REGISTER_REPLICA_UPDATE(double)

}  // namespace
}  // namespace rill::dist
