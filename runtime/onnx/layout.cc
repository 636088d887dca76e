#include "rill/runtime/onnx/layout.h"

#include <set>

#include "rill/core/strided_copy.h"
#include "rill/ops/array_ops.h"

namespace rill::onnx::internal {
namespace {

// A constant as it broadcasts against a value of `rank` (4: NCHW; 3: NCL, whose twin has
// a height of 1) with [1]s prepended, then permuted to NHWC; nullopt for a rank above it.
std::optional<Tensor> ChannelsLastConstant(const Tensor& t, int rank) {
  const int es = DataTypeSize(t.dtype());
  if (es <= 0 || t.dims() > rank) return std::nullopt;
  int64_t d[4] = {1, 1, 1, 1};
  for (int i = 0; i < t.dims(); ++i) d[rank - t.dims() + i] = t.dim_size(i);
  if (rank == 3) std::swap(d[2], d[3]);  // [N, C, L] -> [N, C, 1, L]
  Tensor out(t.dtype(), TensorShape({d[0], d[2], d[3], d[1]}));
  RunStridedCopyOnHost(PermutationCopy(d, {0, 2, 3, 1}), t.data(), out.data(), es);
  return out;
}

bool IsScalar(const Output& o) {
  const PartialTensorShape& s = o.shape();
  return !s.unknown_rank() && s.dims() == 0;
}

}  // namespace

bool IsLayoutFree(const std::string& op_type) {
  static const auto* ops = new std::set<std::string>{
      "Abs",         "Add",        "And",      "Cast",      "Ceil",
      "Clip",        "Cos",        "Div",      "Elu",       "Equal",
      "Erf",         "Exp",        "Floor",    "Greater",   "GreaterOrEqual",
      "HardSigmoid", "HardSwish",  "Identity", "LeakyRelu", "Less",
      "LessOrEqual", "Log",        "Max",      "Mean",      "Min",
      "Mul",         "Neg",        "Not",      "Or",        "Pow",
      "PRelu",       "Reciprocal", "Relu",     "Round",     "Selu",
      "Sigmoid",     "Sign",       "Sin",      "Softplus",  "Softsign",
      "Sqrt",        "Sub",        "Sum",      "Tanh",      "ThresholdedRelu",
      "Where",       "Xor"};
  return ops->count(op_type) != 0;
}

// The ONNX rank the twins' values share (3 or 4), or 0 when they differ or one is unknown.
int TwinRank(const std::vector<Output>& inputs, const std::vector<Output>& twins) {
  int rank = -1;
  for (size_t i = 0; i < inputs.size() && i < twins.size(); ++i) {
    if (twins[i].node() == nullptr) continue;
    const PartialTensorShape& s = inputs[i].shape();
    const int r = s.unknown_rank() ? 0 : s.dims();
    if ((r != 3 && r != 4) || (rank >= 0 && r != rank)) return 0;
    rank = r;
  }
  return rank < 0 ? 0 : rank;
}

std::optional<std::vector<Output>> ChannelsLastInputs(const Scope& scope,
                                                      const std::vector<Output>& inputs,
                                                      const std::vector<Output>& twins, int* rank) {
  *rank = TwinRank(inputs, twins);
  if (*rank == 0) return std::nullopt;  // no twin, or twins of values of different ranks
  std::vector<Output> out;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Output& in = inputs[i];
    const Output twin = i < twins.size() ? twins[i] : Output();
    if (twin.node() != nullptr) {
      out.push_back(twin);
    } else if (in.node() == nullptr || IsScalar(in)) {
      out.push_back(in);  // an absent optional input, or a scalar: the same either way
    } else if (const Tensor* t = in.node()->constant_value()) {
      std::optional<Tensor> nhwc = ChannelsLastConstant(*t, *rank);
      if (!nhwc) return std::nullopt;
      out.push_back(ops::Const(scope.WithOpName("nhwc"), *nhwc));
    } else {
      return std::nullopt;
    }
  }
  return out;
}

int64_t NhwcAxis(int64_t nchw_axis, int rank) {
  static constexpr int64_t kMap4[4] = {0, 3, 1, 2}, kMap3[3] = {0, 3, 2};
  if ((rank != 3 && rank != 4) || nchw_axis < -rank || nchw_axis >= rank) return -1;
  const int64_t a = nchw_axis < 0 ? nchw_axis + rank : nchw_axis;
  return rank == 4 ? kMap4[a] : kMap3[a];
}

Output ToNchw(const NodeContext& c, const Output& nhwc, int rank) {
  Output y = c.Op("Transpose", {nhwc, c.Int64s(kToNchw)});
  if (rank == 3) y = c.Op("Squeeze", {y}, {{"squeeze_dims", std::vector<int64_t>{2}}});
  return y;
}

void SetChannelsLast(NodeContext& c, int i, const Output& y, int rank) {
  c.set_nhwc_output(i, y);
  c.set_output(i, ToNchw(c, y, rank));
}

}  // namespace rill::onnx::internal
