// Which of the graph optimizer's passes a plan gets (runtime/passes/optimize.cc):
// SessionOptions::optimize_graph turns them all off, TensorFlow's ConfigProto one by one
// (runtime/session_config.h).
#pragma once

#include <cstdint>

namespace rill {

struct OptimizeOptions {
  // A folded value larger than this stays computed at run time (a plan keeps its
  // constants in memory for as long as it is cached).
  int64_t max_folded_bytes = 10 << 20;
  // Which passes run (TensorFlow's ConfigProto turns them off one by one; runtime/
  // session_config.h): folding, CSE, arithmetic simplification, the loop passes, and the
  // fusions (composite rules, remapper, elementwise, convolution epilogues).
  bool fold_constants = true;
  bool eliminate_common_subexpressions = true;
  bool simplify_arithmetic = true;
  bool optimize_loops = true;
  bool fuse = true;
  bool any() const {
    return fold_constants || eliminate_common_subexpressions || simplify_arithmetic ||
           optimize_loops || fuse;
  }
};

}  // namespace rill
