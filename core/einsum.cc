#include "rill/core/einsum.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "rill/core/status.h"

namespace rill {
namespace {

struct Terms {
  std::string x, y, out;
};

absl::StatusOr<Terms> Split(absl::string_view eq) {
  const size_t arrow = eq.find("->");
  const size_t comma = eq.find(',');
  if (arrow == absl::string_view::npos || comma == absl::string_view::npos || comma > arrow ||
      eq.find(',', comma + 1) != absl::string_view::npos) {
    return errors::InvalidArgument("equation '", eq,
                                   "' must have the form x,y->out (two operands, explicit output)");
  }
  Terms t{std::string(eq.substr(0, comma)), std::string(eq.substr(comma + 1, arrow - comma - 1)),
          std::string(eq.substr(arrow + 2))};
  for (const std::string* term : {&t.x, &t.y, &t.out}) {
    for (size_t i = 0; i < term->size(); ++i) {
      const char c = (*term)[i];
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
        return errors::InvalidArgument("equation '", eq, "': '", std::string(1, c),
                                       "' is not a label (letters only; no ellipsis)");
      }
      if (term->find(c, i + 1) != std::string::npos) {
        return errors::InvalidArgument("equation '", eq, "': label '", std::string(1, c),
                                       "' repeats within a term");
      }
    }
  }
  return t;
}

bool Has(const std::string& s, char c) { return s.find(c) != std::string::npos; }

// The labels by role: in both operands and the output, in both operands only, in x and the
// output, in y and the output. Any other label is refused.
struct Groups {
  std::string batch, free_x, contract, free_y;
};
absl::StatusOr<Groups> Classify(const Terms& t, absl::string_view equation) {
  Groups g;
  std::string &batch = g.batch, &free_x = g.free_x, &contract = g.contract, &free_y = g.free_y;
  for (char c : t.out) {
    if (!Has(t.x, c) && !Has(t.y, c)) {
      return errors::InvalidArgument("equation '", equation, "': output label '", std::string(1, c),
                                     "' is in neither operand");
    }
  }
  for (char c : t.x) {
    if (Has(t.y, c)) {
      (Has(t.out, c) ? batch : contract) += c;
    } else if (Has(t.out, c)) {
      free_x += c;
    } else {
      return errors::InvalidArgument("equation '", equation, "': label '", std::string(1, c),
                                     "' is summed within x alone; reduce it with Sum first");
    }
  }
  for (char c : t.y) {
    if (Has(t.x, c)) continue;
    if (!Has(t.out, c)) {
      return errors::InvalidArgument("equation '", equation, "': label '", std::string(1, c),
                                     "' is summed within y alone; reduce it with Sum first");
    }
    free_y += c;
  }
  return g;
}

}  // namespace

bool EinsumPlan::Identity(const std::vector<int>& perm) const {
  for (size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != static_cast<int>(i)) return false;
  return true;
}

absl::StatusOr<EinsumPlan> PlanEinsum(absl::string_view equation, absl::Span<const int64_t> x,
                                      absl::Span<const int64_t> y) {
  RILL_ASSIGN_OR_RETURN(Terms t, Split(equation));
  if (t.x.size() != x.size() || t.y.size() != y.size()) {
    return errors::InvalidArgument("equation '", equation, "' names ", t.x.size(), " and ",
                                   t.y.size(), " dims, but the operands have shapes ",
                                   shape_util::Str(x), " and ", shape_util::Str(y));
  }
  RILL_ASSIGN_OR_RETURN(Groups gr, Classify(t, equation));
  const std::string &batch = gr.batch, &free_x = gr.free_x, &contract = gr.contract,
                    &free_y = gr.free_y;
  // Each label's size, checked where both operands have it (-1: unknown).
  auto size_of = [&](char c) -> absl::StatusOr<int64_t> {
    const int64_t a = Has(t.x, c) ? x[t.x.find(c)] : -1, b = Has(t.y, c) ? y[t.y.find(c)] : -1;
    if (a >= 0 && b >= 0 && a != b) {
      return errors::InvalidArgument("equation '", equation, "': label '", std::string(1, c),
                                     "' has size ", a, " in x ", shape_util::Str(x), " but ", b,
                                     " in y ", shape_util::Str(y));
    }
    return a >= 0 ? a : b;
  };
  EinsumPlan p;
  auto product = [&](const std::string& labels, int64_t* into) -> absl::Status {
    for (char c : labels) {
      RILL_ASSIGN_OR_RETURN(int64_t s, size_of(c));
      *into = (*into < 0 || s < 0) ? -1 : *into * s;
    }
    return absl::OkStatus();
  };
  RILL_RETURN_IF_ERROR(product(batch, &p.batch));
  RILL_RETURN_IF_ERROR(product(free_x, &p.m));
  RILL_RETURN_IF_ERROR(product(contract, &p.k));
  RILL_RETURN_IF_ERROR(product(free_y, &p.n));
  for (char c : batch + free_x + contract) p.x_perm.push_back(static_cast<int>(t.x.find(c)));
  for (char c : batch + contract + free_y) p.y_perm.push_back(static_cast<int>(t.y.find(c)));
  const std::string mid = batch + free_x + free_y;
  for (char c : mid) {
    RILL_ASSIGN_OR_RETURN(int64_t s, size_of(c));
    p.mid_dims.push_back(s);
  }
  for (char c : t.out) {
    p.out_perm.push_back(static_cast<int>(mid.find(c)));
    RILL_ASSIGN_OR_RETURN(int64_t s, size_of(c));
    p.out_dims.push_back(s);
  }
  return p;
}

absl::StatusOr<EinsumPlan> PrepareEinsum(OpKernelContext& ctx, absl::string_view equation,
                                         Tensor** out) {
  const Tensor &x = ctx.input(0), &y = ctx.input(1);
  RILL_ASSIGN_OR_RETURN(EinsumPlan p,
                        PlanEinsum(equation, x.shape().dim_sizes(), y.shape().dim_sizes()));
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(p.out_dims));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, out));
  return p;
}

absl::StatusOr<std::string> EinsumGradEquation(absl::string_view equation, int which) {
  RILL_ASSIGN_OR_RETURN(Terms t, Split(equation));
  return which == 0 ? absl::StrCat(t.out, ",", t.y, "->", t.x)
                    : absl::StrCat(t.x, ",", t.out, "->", t.y);
}

}  // namespace rill
