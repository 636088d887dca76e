// _FusedElementwise's program: a chain of elementwise ops that the graph optimizer fused
// (runtime/passes/elementwise.cc) so that a kernel computes it in one pass over memory.
// Registers 0..N-1 are the node's inputs, which broadcast against each other as NumPy's
// (and the ops the chain came from) do; step k computes register N + k from one or two
// earlier registers; the last step's register is the output. A program is three integers
// per step: the op's code, operand a, operand b (-1 for a unary op).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace rill {

enum class ElementwiseOp : int64_t {
  kAdd = 0,
  kSub,
  kMul,
  kDiv,
  kMaximum,
  kMinimum,
  kRelu,
  kRelu6,
  kNeg,
  kAbs,
  kSquare,
  kIdentity,
  // x * min(max(x + 3, 0), 6) / 6, rounded as those five ops are: no rill op, the pass
  // finds the pattern (ONNX exports of MobileNetV3-style models spell HardSwish so).
  kHardSwish,
  kCount,  // not an op: the number of codes
};

struct ElementwiseStep {
  ElementwiseOp op;
  int a, b;  // registers; b = -1 for a unary op
};

bool IsUnary(ElementwiseOp op);
// The code of the rill op a fusable node runs (BiasAdd is an Add of its bias vector, which
// broadcasts along the last dim as NumPy's rule does); nullopt for any other op.
std::optional<ElementwiseOp> ElementwiseOpOf(const std::string& rill_op);
const char* ElementwiseOpName(ElementwiseOp op);

// The most steps a program may have (each holds a block of values while it runs).
inline constexpr int kMaxElementwiseSteps = 64;

// The steps of `program` over `num_inputs` registers, checked: known codes, operands that
// name earlier registers, between 1 and kMaxElementwiseSteps steps.
absl::StatusOr<std::vector<ElementwiseStep>> ParseElementwiseProgram(
    const std::vector<int64_t>& program, int num_inputs);

// A program that a convolution can finish in its epilogue (oneDNN's post-ops): register
// `value` (the convolution's output) is read by the first step, each later step reads the
// step before it, and every other operand is an input register other than `value`; Sub and
// Div read the chain's value as their first operand. Per step: its op and the register of
// its other operand (-1 for a unary op). Nullopt for any other program.
struct ChainStep {
  ElementwiseOp op;
  int operand;
};
std::optional<std::vector<ChainStep>> LinearChain(const std::vector<ElementwiseStep>& steps,
                                                  int num_inputs, int value);

}  // namespace rill
