// The collectives' schemas, shape functions, wrappers and gradients. They are stateful:
// never folded, merged or pruned as duplicates, since each one is a meeting with the other
// ranks that must happen exactly once per run.
#include "rill/ops/collective_ops.h"

#include "rill/core/shape_inference.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"

namespace rill {
namespace {

absl::Status RootRankAttr(const InferenceContext& c) {
  const int64_t root = c.attr<int64_t>("root_rank");
  if (root < 0) return errors::InvalidArgument("root_rank must be >= 0, got ", root);
  return absl::OkStatus();
}

// Rows of every rank: dim 0 is known only at run time.
absl::Status GatheredRows(InferenceContext& c) {
  const PartialTensorShape& in = c.input_shape(0);
  if (in.unknown_rank()) {
    c.set_output(0, in);
    return absl::OkStatus();
  }
  if (in.dims() == 0) return errors::InvalidArgument("input must have rank >= 1, got a scalar");
  std::vector<int64_t> dims(in.dim_sizes().begin(), in.dim_sizes().end());
  dims[0] = -1;
  c.set_output(0, PartialTensorShape(dims));
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_OP("CollectiveAllReduce")
    .Input("input", "T")
    .Output("output", "T")
    .TypeAttr("T", kNumberTypes)
    .Attr("reduction", AttrKind::kString, std::string("sum"))
    // Set by DistributedOptimizer when the ranks' variables are replicas: the update that
    // reads this sum may sum the ranks' updated weights instead (the graph optimizer's
    // _MatMulAllReduceApplyGradientDescent, ops/training_ops.cc). The sum itself is plain.
    .Attr("_replicated_update", AttrKind::kBool, false)
    .SetIsStateful()
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      const auto& r = c.attr<std::string>("reduction");
      if (r != "sum" && r != "mean") {
        return errors::InvalidArgument("reduction must be sum or mean, got '", r, "'");
      }
      return shape_fns::Unchanged(c);
    });

RILL_REGISTER_OP("CollectiveBroadcast")
    .Input("input", "T")
    .Output("output", "T")
    .TypeAttr("T", kAllTypes)
    .Attr("root_rank", AttrKind::kInt, int64_t{0})
    .SetIsStateful()
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(RootRankAttr(c));
      return shape_fns::Unchanged(c);
    });

RILL_REGISTER_OP("CollectiveAllGather")
    .Input("input", "T")
    .Output("output", "T")
    .TypeAttr("T", kAllTypes)
    .SetIsStateful()
    .SetShapeFn(GatheredRows);

// x divided by the number of ranks: each rank's share of a mean. A plain function of the
// job, not a meeting, so constant folding makes a constant of it when the plan is built.
// DistributedOptimizer scales the loss's gradient seed by it: the ranks' gradients then sum
// to their mean, with no pass that divides the reduced gradients.
RILL_REGISTER_OP("_RankShare")
    .Input("x", "T")
    .Output("y", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(shape_fns::Unchanged);

// The gradients of a broadcast and of an allgather: the sum over ranks of the incoming
// gradient, then for a broadcast all of it on the root and zeros elsewhere, for an
// allgather the rows this rank contributed (`x` gives their count).
RILL_REGISTER_OP("_CollectiveBroadcastGrad")
    .Input("grad", "T")
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("root_rank", AttrKind::kInt, int64_t{0})
    .SetIsStateful()
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(RootRankAttr(c));
      return shape_fns::Unchanged(c);
    });

RILL_REGISTER_OP("_CollectiveAllGatherGrad")
    .Input("grad", "T")
    .Input("x", "T")
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .SetIsStateful()
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      const PartialTensorShape& g = c.input_shape(0);
      const PartialTensorShape& x = c.input_shape(1);
      if (!g.unknown_rank() && !x.unknown_rank()) {
        bool fits = g.dims() == x.dims();
        for (int d = 1; fits && d < g.dims(); ++d) {
          const int64_t a = g.dim_size(d), b = x.dim_size(d);
          fits = a < 0 || b < 0 || a == b;
        }
        if (!fits) {
          return errors::InvalidArgument("grad ", g.DebugString(), " does not have the rows of x ",
                                         x.DebugString(),
                                         " (rank >= 1, equal dims after the first)");
        }
      }
      if (!x.unknown_rank() && x.dims() == 0) {
        return errors::InvalidArgument("x must have rank >= 1, got a scalar");
      }
      c.set_output(0, x);
      return absl::OkStatus();
    });

namespace ops {

CollectiveAllReduce::CollectiveAllReduce(const Scope& scope, Input input, const Attrs& attrs) {
  operation = internal::NodeBuilder(scope, "CollectiveAllReduce")
                  .Input(input)
                  .Attr("reduction", attrs.reduction_)
                  .Finalize();
  output = Output(operation, 0);
}

CollectiveBroadcast::CollectiveBroadcast(const Scope& scope, Input input, const Attrs& attrs) {
  operation = internal::NodeBuilder(scope, "CollectiveBroadcast")
                  .Input(input)
                  .Attr("root_rank", attrs.root_rank_)
                  .Finalize();
  output = Output(operation, 0);
}

CollectiveAllGather::CollectiveAllGather(const Scope& scope, Input input) {
  operation = internal::NodeBuilder(scope, "CollectiveAllGather").Input(input).Finalize();
  output = Output(operation, 0);
}

namespace internal {

Output RankShare(const Scope& scope, Input x) {
  return Output(NodeBuilder(scope, "_RankShare").Input(x).Finalize(), 0);
}

Output ReplicaGradientSum(const Scope& scope, Input grad) {
  Operation op = NodeBuilder(scope, "CollectiveAllReduce")
                     .Input(grad)
                     .Attr("reduction", std::string("sum"))
                     .Attr("_replicated_update", true)
                     .Finalize();
  return Output(op, 0);
}

}  // namespace internal

namespace {

// Every rank's loss reads the reduced value, so each input's gradient is the sum over
// ranks of the gradients arriving there (their mean for a mean).
absl::Status AllReduceGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                           std::vector<Output>* out) {
  const std::string& reduction = op.node()->attr<std::string>("reduction");
  out->push_back(CollectiveAllReduce(s, g[0], CollectiveAllReduce::Reduction(reduction)));
  return s.status();
}

absl::Status BroadcastGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                           std::vector<Output>* out) {
  Operation grad = internal::NodeBuilder(s, "_CollectiveBroadcastGrad")
                       .Input(g[0])
                       .Attr("root_rank", op.node()->attr<int64_t>("root_rank"))
                       .Finalize();
  out->push_back(Output(grad, 0));
  return s.status();
}

absl::Status AllGatherGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                           std::vector<Output>* out) {
  Operation grad = internal::NodeBuilder(s, "_CollectiveAllGatherGrad")
                       .Input(g[0])
                       .Input(grad::In(op, 0))
                       .Finalize();
  out->push_back(Output(grad, 0));
  return s.status();
}

// y = x / N, so dx = dy / N.
absl::Status RankShareGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                           std::vector<Output>* out) {
  (void)op;
  out->push_back(internal::RankShare(s, g[0]));
  return s.status();
}

}  // namespace

RILL_REGISTER_GRADIENT("CollectiveAllReduce", AllReduceGrad);
RILL_REGISTER_GRADIENT("CollectiveBroadcast", BroadcastGrad);
RILL_REGISTER_GRADIENT("CollectiveAllGather", AllGatherGrad);
RILL_REGISTER_NO_GRADIENT("_CollectiveBroadcastGrad");
RILL_REGISTER_NO_GRADIENT("_CollectiveAllGatherGrad");
RILL_REGISTER_GRADIENT("_RankShare", RankShareGrad);

}  // namespace ops
}  // namespace rill
