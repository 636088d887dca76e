// Functions copied into other graphs: two functions as one (While's body and condition:
// one run an iteration instead of two), and a function's nodes put inline into a graph
// (the gradients of If and While run their functions' nodes again); and which args a
// function's rets depend on.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "rill/core/function.h"

namespace rill {

// One function that runs `first`, then `second` on first's first return values: its args
// are first's, its rets first's then second's. `second`'s args must match the first of
// first's rets in dtype (first may return more: a _WhileRecord body's logged values); its
// nodes are renamed where first has the name.
absl::StatusOr<FunctionRef> ChainFunctions(const Function& first, const Function& second);

// Copies node `n` into `into` with its inputs (data and control) mapped through `map`,
// which must hold them (else Internal), and records its copy's outputs there. Its name
// gets `prefix` in front, and a suffix where `into` has it; its requested device is kept.
absl::Status CopyNode(const Node& n, Graph& into, std::map<const Node*, std::vector<NodeOut>>& map,
                      const std::string& prefix = "");

// A function's nodes copied into another graph.
struct InlinedFunction {
  std::vector<NodeOut> rets;
  // Each node of the function, args included, and its values in the graph inlined into.
  std::map<const Node*, std::vector<NodeOut>> values;
};

// Copies `f`'s nodes into `into` with its args bound to `args` (one per arg, of its
// dtypes). Copies are named "prefix/name" (a suffix where that is taken); their requested
// devices are kept.
absl::StatusOr<InlinedFunction> InlineFunction(const Function& f, const std::vector<NodeOut>& args,
                                               Graph& into, const std::string& prefix);

// Per arg of `f`: whether any of its rets `rets` depends on it, through data edges (what
// gradients follow) or also through control edges (what running those rets needs).
std::vector<bool> ArgsReaching(const Function& f, const std::vector<int>& rets,
                               bool through_control);

}  // namespace rill
