// ONNX's optimizer ops (domain ai.onnx.preview.training, opset 1): Adagrad, Momentum and
// Adam. Each is a pure function of its inputs, a learning rate R, an update count T, and n
// tensors X with their gradients G and accumulators, returning the updated tensors and
// accumulators; nothing is assigned in place. So they become elementwise compositions,
// written as ONNX's operator specs write them, rather than rill's Apply* ops, which update
// variables. The scalars R and T are cast to each tensor's dtype.
#include "rill/runtime/onnx/converter.h"

namespace rill::onnx::internal {
namespace {

constexpr char kDomain[] = "ai.onnx.preview.training:";
constexpr float kEpsilon = 1e-6f;  // Adagrad's and Adam's default

// How many tensors the node updates: its inputs after R and T, in `groups` lists.
absl::StatusOr<int> TensorCount(const NodeContext& c, int groups) {
  const int rest = c.num_inputs() - 2;
  if (rest <= 0 || rest % groups != 0) {
    return c.Error("takes R, T and ", groups, " lists of tensors of one length; it has ",
                   c.num_inputs(), " inputs");
  }
  for (int i = 0; i < c.num_inputs(); ++i) {
    if (!c.has_input(i)) return c.Error("input ", i, " is missing; every input is required");
  }
  const int n = rest / groups;
  for (int i = 0; i < n; ++i) {
    const DataType dt = c.input(2 + i).type();
    if (dt != DT_FLOAT && dt != DT_DOUBLE) {
      return c.Error("X", i + 1, " is ", DataTypeString(dt), "; it must be float or double");
    }
  }
  return n;
}

// A node's scalar (R, T) in x's dtype.
Output ScalarAs(const NodeContext& c, const Output& v, const Output& x) {
  return v.type() == x.type() ? v : c.Op("Cast", {v}, {{"DstT", x.type()}});
}

// norm_coefficient * X + G: the gradient with the L2 term, as every one of the three forms it.
Output Regularized(const NodeContext& c, const Output& x, const Output& g) {
  return c.Op("Add", {c.Op("Mul", {ScalarLike(c, x, c.attrs().f("norm_coefficient", 0)), x}), g});
}

// T > 0 ? a : b, for scalars.
Output IfCounted(const NodeContext& c, const Output& a, const Output& b) {
  Output t = c.input(1);
  return c.Op("SelectV2", {c.Op("Greater", {t, ScalarLike(c, t, 0)}), a, b});
}

// r = R / (1 + T decay); H' = H + g^2; X' = X - r g / (sqrt(H') + epsilon).
absl::Status ConvertAdagrad(NodeContext& c) {
  RILL_ASSIGN_OR_RETURN(const int n, TensorCount(c, 3));
  for (int i = 0; i < n; ++i) {
    Output x = c.input(2 + i), g = Regularized(c, x, c.input(2 + n + i));
    Output steps =
        c.Op("Mul", {ScalarAs(c, c.input(1), x), ScalarLike(c, x, c.attrs().f("decay_factor", 0))});
    Output r = c.Op("Div", {ScalarAs(c, c.input(0), x), c.Op("Add", {ScalarLike(c, x, 1), steps})});
    Output h = c.Op("Add", {c.input(2 + 2 * n + i), c.Op("Square", {g})});
    Output denom =
        c.Op("Add", {c.Op("Sqrt", {h}), ScalarLike(c, x, c.attrs().f("epsilon", kEpsilon))});
    c.set_output(i, c.Op("Sub", {x, c.Op("Div", {c.Op("Mul", {r, g}), denom})}));
    c.set_output(n + i, h);
  }
  return absl::OkStatus();
}

std::string MomentumSupport(const SupportView& v) {
  for (const char* a : {"alpha", "beta", "mode", "norm_coefficient"}) {
    if (!v.attrs.has(a)) return absl::StrCat("the required attribute '", a, "' is missing");
  }
  const std::string mode = v.attrs.s("mode", "");
  if (mode != "standard" && mode != "nesterov") return absl::StrCat("mode '", mode, "'");
  return "";
}

// V' = alpha V + (T > 0 ? beta : 1) g; X' = X - R V' (standard) or X - R (g + alpha V').
absl::Status ConvertMomentum(NodeContext& c) {
  RILL_ASSIGN_OR_RETURN(const int n, TensorCount(c, 3));
  const bool nesterov = c.attrs().s("mode", "") == "nesterov";
  for (int i = 0; i < n; ++i) {
    Output x = c.input(2 + i), g = Regularized(c, x, c.input(2 + n + i));
    Output alpha = ScalarLike(c, x, c.attrs().f("alpha", 0));
    Output beta = IfCounted(c, ScalarLike(c, x, c.attrs().f("beta", 0)), ScalarLike(c, x, 1));
    Output v = c.Op("Add", {c.Op("Mul", {alpha, c.input(2 + 2 * n + i)}), c.Op("Mul", {beta, g})});
    Output step = nesterov ? c.Op("Add", {g, c.Op("Mul", {alpha, v})}) : v;
    c.set_output(i, c.Op("Sub", {x, c.Op("Mul", {ScalarAs(c, c.input(0), x), step})}));
    c.set_output(n + i, v);
  }
  return absl::OkStatus();
}

// V' = alpha V + (1 - alpha) g; H' = beta H + (1 - beta) g^2; the rate bias-corrected when
// T > 0, R sqrt(1 - beta^T) / (1 - alpha^T); X' = (1 - norm_coefficient_post)
// (X - rate V' / (sqrt(H') + epsilon)).
absl::Status ConvertAdam(NodeContext& c) {
  RILL_ASSIGN_OR_RETURN(const int n, TensorCount(c, 4));
  const double a = c.attrs().f("alpha", 0.9f), b = c.attrs().f("beta", 0.999f);
  for (int i = 0; i < n; ++i) {
    Output x = c.input(2 + i), g = Regularized(c, x, c.input(2 + n + i));
    auto k = [&](double v) { return ScalarLike(c, x, v); };
    Output v =
        c.Op("Add", {c.Op("Mul", {k(a), c.input(2 + 2 * n + i)}), c.Op("Mul", {k(1 - a), g})});
    Output h = c.Op("Add", {c.Op("Mul", {k(b), c.input(2 + 3 * n + i)}),
                            c.Op("Mul", {k(1 - b), c.Op("Square", {g})})});
    Output r = ScalarAs(c, c.input(0), x), t = ScalarAs(c, c.input(1), x);
    Output corrected =
        c.Op("Div", {c.Op("Mul", {r, c.Op("Sqrt", {c.Op("Sub", {k(1), c.Op("Pow", {k(b), t})})})}),
                     c.Op("Sub", {k(1), c.Op("Pow", {k(a), t})})});
    Output rate = IfCounted(c, corrected, r);
    Output denom = c.Op("Add", {c.Op("Sqrt", {h}), k(c.attrs().f("epsilon", kEpsilon))});
    Output stepped = c.Op("Sub", {x, c.Op("Mul", {rate, c.Op("Div", {v, denom})})});
    c.set_output(i, c.Op("Mul", {k(1 - c.attrs().f("norm_coefficient_post", 0)), stepped}));
    c.set_output(n + i, v);
    c.set_output(2 * n + i, h);
  }
  return absl::OkStatus();
}

[[maybe_unused]] const bool kConvertTrainingRegistered = [] {
  auto* r = ConverterRegistry::Global();
  r->Register({absl::StrCat(kDomain, "Adagrad"), 1, nullptr, ConvertAdagrad});
  r->Register({absl::StrCat(kDomain, "Momentum"), 1, MomentumSupport, ConvertMomentum});
  r->Register({absl::StrCat(kDomain, "Adam"), 1, nullptr, ConvertAdam});
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
