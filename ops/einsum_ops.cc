// Einsum: schema, shape function (core/einsum.h's label sizes, shared with the kernels),
// wrapper and gradient.
//
// The gradient is an einsum too: for z = einsum("x,y->z"), the gradient of x is
// einsum("z,y->x", dz, y) when every label of x is in z or y (contractions, diagonals and
// transposes are linear maps whose adjoints swap the terms; a repeated label in x makes that
// einsum write a diagonal). A label x sums alone is in neither, so its part is summed first
// out of the equation ("z,y->x'", x' without it) and then spread back over x's shape by an
// einsum with a tensor of ones shaped like x ("x',x->x"). Where operands broadcast along the
// ellipsis, each gradient is summed back over the dims its operand was broadcast along.
#include "rill/ops/einsum_ops.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "rill/core/einsum.h"
#include "rill/core/shape_inference.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradient_ops.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/strided_slice_ops.h"

namespace rill {

RILL_REGISTER_OP("Einsum")
    .InputList("inputs", "N", "T")
    .Output("output", "T")
    .Attr("equation", AttrKind::kString)
    .Attr("N", AttrKind::kInt)
    .TypeAttr("T", kSignedNumberTypes)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_ASSIGN_OR_RETURN(EinsumEquation eq, ParseEinsum(c.attr<std::string>("equation")));
      if (eq.inputs.size() != static_cast<size_t>(c.num_inputs())) {
        return errors::InvalidArgument("Einsum equation '", eq.text, "' has ", eq.inputs.size(),
                                       " operand term(s) but the op has ", c.num_inputs(),
                                       " inputs");
      }
      std::vector<shape_util::Dims> shapes;
      for (int i = 0; i < c.num_inputs(); ++i) {
        const PartialTensorShape& s = c.input_shape(i);
        if (s.unknown_rank()) {
          c.set_output(0, PartialTensorShape());
          return absl::OkStatus();
        }
        shapes.emplace_back(s.dim_sizes().begin(), s.dim_sizes().end());
      }
      RILL_ASSIGN_OR_RETURN(shape_util::Dims out, EinsumOutputDims(eq, shapes));
      c.set_output(0, PartialTensorShape(out));
      return absl::OkStatus();
    });

namespace ops {

Einsum::Einsum(const Scope& scope, InputList inputs, const std::string& equation) {
  internal::NodeBuilder(scope, "Einsum").Inputs(inputs).Attr("equation", equation).Finalize(this);
}

namespace {

constexpr char kEllipsis[] = "...";

bool HasLetter(absl::string_view term, char c) {
  return c != '.' && term.find(c) != absl::string_view::npos;
}

// `term` without the letters that are in neither `a` nor `b`.
std::string Kept(absl::string_view term, absl::string_view a, absl::string_view b) {
  std::string out;
  for (char c : term) {
    if (c == '.' || HasLetter(a, c) || HasLetter(b, c)) out += c;
  }
  return out;
}

// The gradient of the operand with term `in` from dz (term `out`) and the other operands'
// terms and values (none for a one-operand einsum), before any summing over broadcast dims.
Output GradOf(const Scope& s, const Output& x, const std::string& in, const std::string& out,
              const Output& dz, const std::vector<std::string>& others,
              const std::vector<Output>& other_values) {
  const std::string other = others.empty() ? "" : others[0];
  const std::string left = Kept(in, out, other);
  std::vector<Output> operands = {dz};
  std::string eq = out;
  for (size_t i = 0; i < others.size(); ++i) {
    operands.push_back(other_values[i]);
    absl::StrAppend(&eq, ",", others[i]);
  }
  if (left == in) return Einsum(s, operands, absl::StrCat(eq, "->", in));
  // Labels x sums alone: their part summed out of the equation, then spread over x's shape.
  const Output partial =
      operands.size() == 1 && left == out ? dz : Output(Einsum(s, operands, eq + "->" + left));
  return Einsum(s, {partial, OnesLike(s, x)}, absl::StrCat(left, ",", in, "->", in));
}

// The dims of `term`'s operand (value `x`) its ellipsis stands for, as a slice of its shape.
Output EllipsisShape(const Scope& s, const Output& x, const std::string& term) {
  const int64_t before = static_cast<int64_t>(term.find(kEllipsis));
  const int64_t after = static_cast<int64_t>(term.size()) - before - 3;
  return StridedSlice(s, Shape(s, x), grad::IntVector(s, {before}), grad::IntVector(s, {-after}),
                      grad::IntVector(s, {1}), StridedSlice::EndMask(after == 0 ? 1 : 0));
}

// g (with the output's broadcast dims where `term` has its ellipsis) summed over the
// broadcast dims x was broadcast along (`r`, from BroadcastGradientArgs) and shaped as x.
Output Unbroadcast(const Scope& s, const Output& g, const Output& x, const std::string& term,
                   const Output& r) {
  const int64_t before = static_cast<int64_t>(term.find(kEllipsis));
  const Output axes = Add(s, r, grad::IntVector(s, {before}));
  return Reshape(s, Sum(s, g, axes), Shape(s, x));
}

absl::Status EinsumGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                        std::vector<Output>* out) {
  const std::string& eq = op.node()->attr<std::string>("equation");
  const std::vector<std::string> sides = absl::StrSplit(eq, "->");
  if (sides.size() != 2) return errors::InvalidArgument("Einsum equation '", eq, "' has no '->'");
  std::vector<std::string> terms = absl::StrSplit(sides[0], ',');
  const std::string& z = sides[1];
  if (terms.size() == 1) {
    out->push_back(GradOf(s, grad::In(op, 0), terms[0], z, g[0], {}, {}));
    return s.status();
  }
  // "...ij,jk->...ik": y's term gets an ellipsis of no dims, so that the gradient equations
  // that write y's term may read the output's.
  const bool broadcast = absl::StrContains(z, kEllipsis);
  for (std::string& t : terms) {
    if (broadcast && !absl::StrContains(t, kEllipsis)) t += kEllipsis;
  }
  const Output x = grad::In(op, 0), y = grad::In(op, 1);
  Output gx = GradOf(s, x, terms[0], z, g[0], {terms[1]}, {y});
  Output gy = GradOf(s, y, terms[1], z, g[0], {terms[0]}, {x});
  if (broadcast) {
    BroadcastGradientArgs r(s, EllipsisShape(s, x, terms[0]), EllipsisShape(s, y, terms[1]));
    gx = Unbroadcast(s, gx, x, terms[0], r.r0);
    gy = Unbroadcast(s, gy, y, terms[1], r.r1);
  }
  out->push_back(gx);
  out->push_back(gy);
  return s.status();
}

}  // namespace

RILL_REGISTER_GRADIENT("Einsum", EinsumGrad);

}  // namespace ops
}  // namespace rill
