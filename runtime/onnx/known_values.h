// Internal: values the importer can know before a model runs, element by element. A
// PyTorch export checks shapes at run time (If(Equal(Gather(Shape(x), 1), 1))); where the
// graph knows the dims involved, the importer can pick the branch itself, so that what
// follows keeps its ranks (the two branches of such an If often differ in rank).
#pragma once

#include <optional>
#include <vector>

#include "rill/ops/scope.h"

namespace rill::onnx::internal {

// A scalar or vector of integers or bools (as 0/1); an element the graph does not know
// is nullopt.
struct KnownValue {
  bool scalar = true;
  std::vector<std::optional<int64_t>> elements;
};

// What the graph knows of `o` without running it: constants, the dims of shapes, and
// what the integer ops on them make (Gather, Cast, reshapes, arithmetic, comparisons,
// logic, SelectV2, Slice). Nullopt when `o` is not such a value (or has more than 64
// elements).
std::optional<KnownValue> Evaluate(const Output& o);

}  // namespace rill::onnx::internal
