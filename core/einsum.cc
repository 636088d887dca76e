// Einsum's equation: parsing, the ellipsis expanded for the operands' ranks, label sizes.
#include "rill/core/einsum.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "rill/core/limits.h"
#include "rill/core/status.h"

namespace rill {
namespace {

int LabelId(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return 26 + (c - 'A');
  return -2;
}

// "label 'j'", or for a broadcast label "dim 1 of '...'" (counted in the output's).
std::string LabelName(int id) {
  if (id < 26) return absl::StrCat("label '", std::string(1, static_cast<char>('a' + id)), "'");
  if (id < kEinsumBroadcastLabel) {
    return absl::StrCat("label '", std::string(1, static_cast<char>('A' + id - 26)), "'");
  }
  return absl::StrCat("dim ", id - kEinsumBroadcastLabel, " of '...'");
}

absl::StatusOr<std::vector<int>> ParseTerm(absl::string_view term, absl::string_view eq) {
  std::vector<int> labels;
  for (size_t i = 0; i < term.size(); ++i) {
    if (term.substr(i, 3) == "...") {
      if (std::count(labels.begin(), labels.end(), kEinsumEllipsis) > 0) {
        return errors::InvalidArgument("Einsum equation '", eq, "': term '", term,
                                       "' has more than one ellipsis");
      }
      labels.push_back(kEinsumEllipsis);
      i += 2;
      continue;
    }
    const int id = LabelId(term[i]);
    if (id < 0) {
      return errors::InvalidArgument("Einsum equation '", eq, "': '", term.substr(i, 1),
                                     "' is not a label (letters, and '...' once per term)");
    }
    labels.push_back(id);
  }
  return labels;
}

bool HasEllipsis(const std::vector<int>& term) {
  return std::find(term.begin(), term.end(), kEinsumEllipsis) != term.end();
}

// The broadcast dims `term` stands for with an operand of rank `rank`, or an error.
absl::StatusOr<int> BroadcastDims(const EinsumEquation& eq, int i, const shape_util::Dims& shape) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  const std::vector<int>& term = eq.inputs[i];
  const bool ellipsis = HasEllipsis(term);
  const int64_t named = static_cast<int64_t>(term.size()) - (ellipsis ? 1 : 0);
  if (ellipsis ? rank < named : rank != named) {
    return errors::InvalidArgument(
        "Einsum equation '", eq.text, "': operand ", i, " ", shape_util::Str(shape), " has rank ",
        shape.size(), " but its term names ", ellipsis ? "at least " : "", named, " dims");
  }
  return static_cast<int>(rank - named);
}

// `term` with its ellipsis replaced by `count` broadcast labels, the last of them the
// output's last broadcast label (`total` in all).
std::vector<int> Expand(const std::vector<int>& term, int count, int total) {
  std::vector<int> out;
  for (int label : term) {
    if (label != kEinsumEllipsis) {
      out.push_back(label);
      continue;
    }
    for (int j = 0; j < count; ++j) out.push_back(kEinsumBroadcastLabel + total - count + j);
  }
  return out;
}

// Merges a known size `s` of `label` in operand `operand` into `*size` (-1: none known yet;
// `*from`: the operand it came from): a named label's sizes must agree; a broadcast label's
// broadcast (equal, or 1).
absl::Status MergeSize(const EinsumEquation& eq, absl::Span<const shape_util::Dims> shapes,
                       int label, int64_t s, int operand, int64_t* size, int* from) {
  if (*size < 0 || *size == s || (label >= kEinsumBroadcastLabel && *size == 1)) {
    *size = s;
    *from = operand;
  } else if (!(label >= kEinsumBroadcastLabel && s == 1)) {
    return errors::InvalidArgument("Einsum equation '", eq.text, "': ", LabelName(label),
                                   " has size ", s, " in operand ", operand, " ",
                                   shape_util::Str(shapes[operand]), " but ", *size, " in operand ",
                                   *from, " ", shape_util::Str(shapes[*from]));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<EinsumEquation> ParseEinsum(absl::string_view equation) {
  EinsumEquation eq;
  eq.text = std::string(equation);
  const size_t arrow = equation.find("->");
  if (arrow == absl::string_view::npos ||
      equation.find("->", arrow + 2) != absl::string_view::npos) {
    return errors::InvalidArgument("Einsum equation '", equation,
                                   "' needs exactly one '->' before an explicit output term");
  }
  const std::vector<absl::string_view> terms = absl::StrSplit(equation.substr(0, arrow), ',');
  if (terms.size() > 2) {
    return errors::InvalidArgument("Einsum equation '", equation, "' has ", terms.size(),
                                   " operands; the op takes one or two (contract more in steps)");
  }
  for (absl::string_view t : terms) {
    RILL_ASSIGN_OR_RETURN(std::vector<int> labels, ParseTerm(t, equation));
    eq.inputs.push_back(std::move(labels));
  }
  RILL_ASSIGN_OR_RETURN(eq.output, ParseTerm(equation.substr(arrow + 2), equation));
  // An output "..." with no operand's is allowed: it stands for no dims (the gradient's
  // equations write such terms).
  for (int label : eq.output) {
    bool found = label == kEinsumEllipsis;
    for (const auto& in : eq.inputs) found |= std::find(in.begin(), in.end(), label) != in.end();
    if (!found) {
      return errors::InvalidArgument("Einsum equation '", equation, "': output ", LabelName(label),
                                     " is in no operand");
    }
  }
  return eq;
}

absl::StatusOr<EinsumLabels> ResolveEinsum(const EinsumEquation& eq,
                                           absl::Span<const shape_util::Dims> shapes) {
  if (shapes.size() != eq.inputs.size()) {
    return errors::InvalidArgument("Einsum equation '", eq.text, "' has ", eq.inputs.size(),
                                   " operand terms but the op has ", shapes.size(), " inputs");
  }
  EinsumLabels r;
  std::vector<int> counts;
  for (size_t i = 0; i < shapes.size(); ++i) {
    RILL_ASSIGN_OR_RETURN(int c, BroadcastDims(eq, static_cast<int>(i), shapes[i]));
    counts.push_back(c);
    r.broadcast_dims = std::max(r.broadcast_dims, c);
  }
  if (r.broadcast_dims > 0 && !HasEllipsis(eq.output)) {
    return errors::InvalidArgument("Einsum equation '", eq.text, "': the operands have ",
                                   r.broadcast_dims, " broadcast dim(s) but the output no '...'");
  }
  r.size.assign(kEinsumBroadcastLabel + r.broadcast_dims, -1);
  std::vector<bool> unknown(r.size.size(), false);
  std::vector<int> from(r.size.size(), 0);
  for (size_t i = 0; i < shapes.size(); ++i) {
    r.inputs.push_back(Expand(eq.inputs[i], counts[i], r.broadcast_dims));
    const std::vector<int>& labels = r.inputs.back();
    for (size_t d = 0; d < labels.size(); ++d) {
      const int64_t s = shapes[i][d];
      if (s < 0) {
        unknown[labels[d]] = true;
        continue;
      }
      RILL_RETURN_IF_ERROR(MergeSize(eq, shapes, labels[d], s, static_cast<int>(i),
                                     &r.size[labels[d]], &from[labels[d]]));
    }
  }
  // An unknown dim broadcast against 1s (or nothing) may be any size.
  for (int label = kEinsumBroadcastLabel; label < static_cast<int>(r.size.size()); ++label) {
    if (unknown[label] && r.size[label] == 1) r.size[label] = -1;
  }
  r.output = Expand(eq.output, r.broadcast_dims, r.broadcast_dims);
  if (r.output.size() > static_cast<size_t>(kMaxTensorRank)) {
    return errors::InvalidArgument("Einsum equation '", eq.text, "': an output of rank ",
                                   r.output.size(), " (at most ", kMaxTensorRank, ")");
  }
  return r;
}

absl::StatusOr<shape_util::Dims> EinsumOutputDims(const EinsumEquation& eq,
                                                  absl::Span<const shape_util::Dims> shapes) {
  RILL_ASSIGN_OR_RETURN(EinsumLabels r, ResolveEinsum(eq, shapes));
  shape_util::Dims out;
  for (int label : r.output) out.push_back(r.size[label]);
  return out;
}

}  // namespace rill
