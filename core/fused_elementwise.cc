#include "rill/core/fused_elementwise.h"

#include "rill/core/status.h"

namespace rill {
namespace {

struct OpInfo {
  ElementwiseOp op;
  const char* name;
  bool unary;
  bool is_rill_op = true;  // a node of this op type fuses to this step
};

constexpr OpInfo kOps[] = {
    {ElementwiseOp::kAdd, "Add", false},
    {ElementwiseOp::kSub, "Sub", false},
    {ElementwiseOp::kMul, "Mul", false},
    {ElementwiseOp::kDiv, "RealDiv", false},
    {ElementwiseOp::kMaximum, "Maximum", false},
    {ElementwiseOp::kMinimum, "Minimum", false},
    {ElementwiseOp::kRelu, "Relu", true},
    {ElementwiseOp::kRelu6, "Relu6", true},
    {ElementwiseOp::kNeg, "Neg", true},
    {ElementwiseOp::kAbs, "Abs", true},
    {ElementwiseOp::kSquare, "Square", true},
    {ElementwiseOp::kIdentity, "Identity", true},
    {ElementwiseOp::kHardSwish, "HardSwish", true, false},
};
static_assert(sizeof(kOps) / sizeof(kOps[0]) == static_cast<size_t>(ElementwiseOp::kCount));

}  // namespace

bool IsUnary(ElementwiseOp op) { return kOps[static_cast<int>(op)].unary; }
const char* ElementwiseOpName(ElementwiseOp op) { return kOps[static_cast<int>(op)].name; }

std::optional<ElementwiseOp> ElementwiseOpOf(const std::string& rill_op) {
  if (rill_op == "BiasAdd" || rill_op == "AddV2") return ElementwiseOp::kAdd;
  if (rill_op == "Div") return ElementwiseOp::kDiv;  // the fused dtypes are floating
  for (const OpInfo& o : kOps) {
    if (o.is_rill_op && rill_op == o.name) return o.op;
  }
  return std::nullopt;
}

absl::StatusOr<std::vector<ElementwiseStep>> ParseElementwiseProgram(
    const std::vector<int64_t>& program, int num_inputs) {
  if (program.empty() || program.size() % 3 != 0 ||
      program.size() / 3 > static_cast<size_t>(kMaxElementwiseSteps)) {
    return errors::InvalidArgument("a program is 1 to ", kMaxElementwiseSteps,
                                   " steps of 3 integers, got ", program.size(), " integers");
  }
  std::vector<ElementwiseStep> steps;
  for (size_t i = 0; i < program.size(); i += 3) {
    const int64_t code = program[i], a = program[i + 1], b = program[i + 2];
    const int64_t defined = num_inputs + static_cast<int64_t>(steps.size());
    if (code < 0 || code >= static_cast<int64_t>(ElementwiseOp::kCount)) {
      return errors::InvalidArgument("step ", i / 3, ": unknown op code ", code);
    }
    const auto op = static_cast<ElementwiseOp>(code);
    const bool b_ok = IsUnary(op) ? b == -1 : (b >= 0 && b < defined);
    if (a < 0 || a >= defined || !b_ok) {
      return errors::InvalidArgument("step ", i / 3, " (", ElementwiseOpName(op),
                                     ") reads registers ", a, " and ", b, "; registers 0 to ",
                                     defined - 1, " are defined");
    }
    steps.push_back({op, static_cast<int>(a), static_cast<int>(b)});
  }
  return steps;
}

std::optional<std::vector<ChainStep>> LinearChain(const std::vector<ElementwiseStep>& steps,
                                                  int num_inputs, int value) {
  std::vector<ChainStep> chain;
  int acc = value;
  for (const ElementwiseStep& s : steps) {
    if (IsUnary(s.op)) {
      if (s.a != acc) return std::nullopt;
      chain.push_back({s.op, -1});
    } else {
      const bool ordered = s.op == ElementwiseOp::kSub || s.op == ElementwiseOp::kDiv;
      const int other = s.a == acc ? s.b : ordered || s.b != acc ? -2 : s.a;
      if (other < 0 || other >= num_inputs || other == value) return std::nullopt;
      chain.push_back({s.op, other});
    }
    acc = num_inputs + static_cast<int>(chain.size()) - 1;
  }
  return chain;
}

}  // namespace rill
