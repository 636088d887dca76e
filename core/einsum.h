// Einsum as TensorFlow's op computes it: one or two operands, an explicit output, labels that
// are letters, at most one ellipsis ("...") per term standing for broadcast dims (aligned
// from the right, as NumPy broadcasts). A label repeated within an operand takes its
// diagonal; a label repeated in the output writes a diagonal (zeros elsewhere); a label in
// one operand alone and not in the output is summed there.
//
// The plan, shared by the shape function and the CPU and GPU kernels, reduces every case to
// four data movements any device has: a strided copy of each operand into the order
// [batch, free, contracted, summed] (diagonals read with summed strides), a sum over the
// trailing summed labels, a batched GEMM [batch, m, k] x [batch, k, n] (a broadcast operand
// has batch stride 0, or is copied out to the full batch when its broadcast is partial),
// and a strided copy of the product into the output's order (repeated output labels written
// with summed strides into a zeroed output). einsum_steps.h runs it.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "rill/core/kernel.h"
#include "rill/core/shape_util.h"
#include "rill/core/strided_copy.h"

namespace rill {

// Label ids: 'a'..'z' are 0..25, 'A'..'Z' 26..51; the broadcast dims an ellipsis stands for
// are kEinsumBroadcastLabel + i, the output's i-th broadcast dim.
inline constexpr int kEinsumBroadcastLabel = 52;
inline constexpr int kEinsumEllipsis = -1;  // where "..." stands in a parsed term

struct EinsumEquation {
  std::string text;
  std::vector<std::vector<int>> inputs;  // one term per operand (1 or 2)
  std::vector<int> output;
};

// InvalidArgument unless `equation` is "x->out" or "x,y->out" over letters with at most one
// "..." per term, and every output label is in some operand.
absl::StatusOr<EinsumEquation> ParseEinsum(absl::string_view equation);

// The terms with each ellipsis expanded for the operands' ranks, and each label's size
// (-1: unknown, for shape functions; a broadcast label's size is the broadcast of its sizes).
struct EinsumLabels {
  std::vector<std::vector<int>> inputs;
  std::vector<int> output;
  std::vector<int64_t> size;  // by label id
  int broadcast_dims = 0;
};
absl::StatusOr<EinsumLabels> ResolveEinsum(const EinsumEquation& eq,
                                           absl::Span<const shape_util::Dims> shapes);

// The output's dims (-1 where unknown) for operand shapes of known rank.
absl::StatusOr<shape_util::Dims> EinsumOutputDims(const EinsumEquation& eq,
                                                  absl::Span<const shape_util::Dims> shapes);

// One operand's way into the GEMM (or, alone, into the output): gathered into label order
// (when not already in it), summed over its trailing `reduce` elements, expanded to the full
// batch (when broadcast along some batch dims only).
struct EinsumOperandPlan {
  bool gathered = false;
  StridedCopy gather;       // into [batch, free, contracted, summed], contiguous
  bool transposed = false;  // in [batch, contracted, free] order instead (x: k x m; y: n x k)
  int64_t rows = 0;         // elements once summed
  int64_t reduce = 1;       // elements summed into each (0: the result is zeros)
  bool expanded = false;
  StridedCopy expand;        // [own batch, rest] -> [full batch, rest]
  int64_t elements = 0;      // what the GEMM (or the output copy) reads
  int64_t batch_stride = 0;  // between consecutive GEMM batches (0: one matrix for all)
};

struct EinsumPlan {
  int num_inputs = 0;
  EinsumOperandPlan operand[2];
  int64_t batch = 1, m = 1, k = 1, n = 1;  // two operands: [batch, m, k] x [batch, k, n]
  int64_t mid_elements = 0;                // the product (or the lone operand, prepared)
  bool direct = false;                     // the product already is the output
  bool zero_fill = false;                  // a repeated output label: zero the rest first
  StridedCopy scatter;                     // product -> output, when not direct
  shape_util::Dims out_dims;
};

absl::StatusOr<EinsumPlan> PlanEinsum(const EinsumEquation& eq,
                                      absl::Span<const shape_util::Dims> shapes);

// What an Einsum kernel keeps: its equation parsed (or the parse's error, returned at each
// run) and its last plan, reused while the inputs keep their shapes (planning costs about
// as much as a small einsum itself).
class EinsumPlanner {
 public:
  explicit EinsumPlanner(absl::string_view equation) : eq_(ParseEinsum(equation)) {}
  // The plan for the kernel's inputs (1 or 2), output 0 allocated into *out.
  absl::StatusOr<EinsumPlan> Prepare(OpKernelContext& ctx, Tensor** out);

 private:
  absl::StatusOr<EinsumEquation> eq_;
  std::mutex mu_;
  std::vector<shape_util::Dims> shapes_;  // of the last plan's inputs
  EinsumPlan plan_;
  bool planned_ = false;
};

// Whether `c` copies a contiguous source to an identical contiguous destination.
bool IsPlainCopy(const StridedCopy& c);

}  // namespace rill
