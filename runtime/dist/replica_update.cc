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
// With replicas either is the update of the summed gradient, with no gradient stored and no
// pass over the weights after the collective.
#include <algorithm>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "rill/core/apply_util.h"
#include "rill/core/async_kernel.h"
#include "rill/core/kernel_util.h"
#include "rill/kernels/cpu/gemm.h"
#include "rill/runtime/dist/collectives.h"
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

template <typename T>
class MatMulAllReduceApplyGradientDescentOp : public AsyncOpKernel {
 public:
  explicit MatMulAllReduceApplyGradientDescentOp(OpKernelConstruction& c)
      : AsyncOpKernel(c),
        vars_(c, 1),
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
                              up.Gatherable() ? 1 : 0};
    const std::string what = absl::StrCat("update of the replicas' weights ",
                                          spec.shape.DebugString(), " of ", node().name());
    (*engine)->Submit(
        what,
        [spec, u = *std::move(update)](Comm& c) mutable -> absl::Status {
          ReplicaFills fills;
          fills.sum = [&](bool root) { return u->Fill(root); };
          fills.rows = [&](const Tensor& a, const Tensor& b, int64_t row0, int64_t count) {
            return u->FillRows(a, b, row0, count);
          };
          absl::Status st = UpdateReplicas(c, Host(), spec, u->var, u->a, u->b, fills);
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
    RILL_RETURN_IF_ERROR(vars_.Prepare(ctx, TensorShape({geo.m, geo.n}), &locks, &v));
    auto u = std::make_shared<ReplicaUpdate<T>>();
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
  bool ta_, tb_;
};

#define RILL_REGISTER_REPLICA_UPDATE(T)                                         \
  RILL_REGISTER_KERNEL("_MatMulAllReduceApplyGradientDescent", DEVICE_CPU, "T", \
                       DataTypeToEnum<T>::value, MatMulAllReduceApplyGradientDescentOp<T>);
RILL_REGISTER_REPLICA_UPDATE(float)
RILL_REGISTER_REPLICA_UPDATE(double)

}  // namespace
}  // namespace rill::dist
