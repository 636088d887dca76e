#include "rill/runtime/onnx/layout.h"

#include <set>

#include "rill/core/strided_copy.h"
#include "rill/ops/array_ops.h"

namespace rill::onnx::internal {
namespace {

// A constant of rank <= 4 as it broadcasts against an NCHW value ([1]s prepended), then
// permuted to NHWC; nullopt for a rank above 4.
std::optional<Tensor> ChannelsLastConstant(const Tensor& t) {
  const int es = DataTypeSize(t.dtype());
  if (es <= 0 || t.dims() > 4) return std::nullopt;
  int64_t d[4] = {1, 1, 1, 1};
  for (int i = 0; i < t.dims(); ++i) d[4 - t.dims() + i] = t.dim_size(i);
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

std::optional<std::vector<Output>> ChannelsLastInputs(const Scope& scope,
                                                      const std::vector<Output>& inputs,
                                                      const std::vector<Output>& twins) {
  bool any_twin = false;
  std::vector<Output> out;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Output& in = inputs[i];
    const Output twin = i < twins.size() ? twins[i] : Output();
    if (twin.node() != nullptr) {
      any_twin = true;
      out.push_back(twin);
    } else if (in.node() == nullptr || IsScalar(in)) {
      out.push_back(in);  // an absent optional input, or a scalar: the same either way
    } else if (const Tensor* t = in.node()->constant_value()) {
      std::optional<Tensor> nhwc = ChannelsLastConstant(*t);
      if (!nhwc) return std::nullopt;
      out.push_back(ops::Const(scope.WithOpName("nhwc"), *nhwc));
    } else {
      return std::nullopt;
    }
  }
  if (!any_twin) return std::nullopt;
  return out;
}

int64_t NhwcAxis(int64_t nchw_axis) {
  static constexpr int64_t kMap[4] = {0, 3, 1, 2};
  if (nchw_axis < -4 || nchw_axis >= 4) return -1;
  return kMap[nchw_axis < 0 ? nchw_axis + 4 : nchw_axis];
}

Output ToNchw(const NodeContext& c, const Output& nhwc) {
  return c.Op("Transpose", {nhwc, c.Int64s(kToNchw)});
}

void SetChannelsLast(NodeContext& c, int i, const Output& y) {
  c.set_nhwc_output(i, y);
  c.set_output(i, ToNchw(c, y));
}

}  // namespace rill::onnx::internal
