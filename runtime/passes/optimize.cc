// Pass 3, optimize: the graph optimizer every plan gets (SessionOptions::optimize_graph,
// on by default; TensorFlow's ConfigProto turns its passes off one by one), on the plan's
// own copy of the graph.
//
// Its passes run in this order, each producing the next graph:
//   composite rules            fuse losses, metrics and a batch mean's gradient, each
//                              recognised as the builders wrote it (before the passes
//                              below rewrite its pieces);
//   constant folding           computes once what every run would compute alike;
//   arithmetic simplification  drops x*1, x+0, undone transposes, identity chains, and
//                              folds reshape chains: it sees the constants folding made;
//   common subexpressions      merges repeated work, once identities no longer hide that
//                              two nodes read the same value;
//   loop twins                 runs a While and the _WhileRecord its gradient added as
//                              one loop (it needs the inputs CSE made the same);
//   loop variables             drops from a While the variables nothing reads (after the
//                              twins: a While merged into its record needs them all);
//   remapper, backward         fuses activation and bias gradients and the weight update
//                              of a MatMul gradient;
//   remapper, forward          fuses bias and activation;
//   elementwise fusion         runs what elementwise chains are left in one pass over
//                              memory (_FusedElementwise);
//   convolution epilogues      hands a chain that finishes a convolution to the
//                              convolution's kernel (oneDNN's post-ops): it needs the
//                              chains the pass before made.
// The other fusions come last because a fused node is opaque to the passes before them, and the
// backward rules before the forward one because they release the BiasAdd a ReluGrad read.
// A fetched node keeps its value under its name; what the optimizer removes is what no
// fetch, target or kept node needs.
#include "rill/runtime/passes/passes.h"

namespace rill {

absl::StatusOr<PlanGraph> Optimize(PlanGraph g, const OptimizeOptions& options) {
  if (options.fuse) {
    RILL_ASSIGN_OR_RETURN(g, FuseComposites(g));
  }
  if (options.fold_constants) {
    RILL_ASSIGN_OR_RETURN(g, FoldConstants(g, options));
  }
  if (options.simplify_arithmetic) {
    RILL_ASSIGN_OR_RETURN(g, SimplifyArithmetic(g));
  }
  if (options.eliminate_common_subexpressions) {
    RILL_ASSIGN_OR_RETURN(g, EliminateCommonSubexpressions(g));
  }
  if (options.optimize_loops) {
    RILL_ASSIGN_OR_RETURN(g, MergeLoopTwins(g));
    RILL_ASSIGN_OR_RETURN(g, PruneLoopVariables(g));
  }
  if (options.fuse) {
    RILL_ASSIGN_OR_RETURN(g, FuseBackward(g));
    RILL_ASSIGN_OR_RETURN(g, FuseForward(g));
    RILL_ASSIGN_OR_RETURN(g, FuseElementwise(g));
    RILL_ASSIGN_OR_RETURN(g, FuseConvEpilogues(g));
  }
  return g;
}

}  // namespace rill
