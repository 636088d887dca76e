// Einsum's plan (einsum.h): each label's role, the operands' copies into GEMM order, the
// product's copy into the output.
#include <algorithm>
#include <utility>

#include "rill/core/einsum.h"
#include "rill/core/limits.h"
#include "rill/core/status.h"
#include "rill/core/tensor_shape.h"

namespace rill {
namespace {

// Axes as (label, size), row-major.
using Axes = std::vector<std::pair<int, int64_t>>;
constexpr int kFlatLabel = 1 << 20;  // one axis standing for several labels

bool Contains(const std::vector<int>& v, int label) {
  return std::find(v.begin(), v.end(), label) != v.end();
}

// The labels of `term` without repeats, in order of first appearance.
std::vector<int> Distinct(const std::vector<int>& term) {
  std::vector<int> out;
  for (int l : term) {
    if (!Contains(out, l)) out.push_back(l);
  }
  return out;
}

Axes AxesOf(const std::vector<int>& labels, absl::Span<const int64_t> sizes) {
  Axes a;
  for (size_t i = 0; i < labels.size(); ++i) a.emplace_back(labels[i], sizes[i]);
  return a;
}

// A label's stride over the row-major axes `axes`: the sum of its axes' strides (a repeated
// label walks a diagonal); an axis of size 1 adds nothing (so a size-1 axis broadcasts).
int64_t StrideOf(const Axes& axes, int label) {
  int64_t stride = 1, sum = 0;
  for (size_t i = axes.size(); i-- > 0;) {
    if (axes[i].first == label && axes[i].second != 1) sum += stride;
    stride *= axes[i].second;
  }
  return sum;
}

// The copy that visits every position of `over` (labels and the sizes to walk), reading `src`
// and writing `dst` at each label's strides there. Size-1 labels are left out of the walk.
StridedCopy LabelCopy(const Axes& over, const Axes& src, const Axes& dst) {
  StridedCopy c;
  for (const auto& [label, size] : over) {
    if (size == 1) continue;
    c.dims[c.rank] = size;
    c.src_strides[c.rank] = StrideOf(src, label);
    c.dst_strides[c.rank] = StrideOf(dst, label);
    ++c.rank;
  }
  return c;
}

absl::StatusOr<int64_t> Volume(const Axes& axes, const EinsumEquation& eq) {
  int64_t v = 1;
  for (const auto& a : axes) v = MultiplyWithoutOverflow(v, a.second);
  if (v < 0) return errors::InvalidArgument("Einsum '", eq.text, "': sizes overflow int64");
  return v;
}

struct OperandLayout {
  Axes batch;    // the output's batch labels at their full sizes
  Axes rest;     // free and contracted labels, in GEMM order
  Axes swapped;  // the same two groups the other way round (empty: not an option)
  Axes reduce;
};

// The operand's labels in `batch`, `rest`, `reduce` order, and the copy into it.
StridedCopy GatherInto(const Axes& own_batch, const Axes& rest, const Axes& reduce,
                       const Axes& src) {
  Axes order = own_batch;
  order.insert(order.end(), rest.begin(), rest.end());
  order.insert(order.end(), reduce.begin(), reduce.end());
  return LabelCopy(order, src, order);
}

// The operand (labels `term`, dims `shape`) into `layout`'s order: gathered, summed over the
// reduce labels, expanded to the full batch where it broadcasts along some batch dims only.
absl::Status PlanOperand(const EinsumEquation& eq, const std::vector<int>& term,
                         const shape_util::Dims& shape, const OperandLayout& layout,
                         EinsumOperandPlan* p) {
  const Axes src = AxesOf(term, shape);
  Axes own_batch;  // this operand's sizes of the batch labels (1 where it lacks one)
  for (const auto& [label, size] : layout.batch) {
    const auto it = std::find(term.begin(), term.end(), label);
    own_batch.emplace_back(label, it == term.end() ? 1 : shape[it - term.begin()]);
  }
  p->gather = GatherInto(own_batch, layout.rest, layout.reduce, src);
  p->gathered = !IsPlainCopy(p->gather);
  // An operand already laid out with its two GEMM groups the other way round is read
  // transposed by the GEMM instead of copied ("bhkd" as attention's keys).
  if (p->gathered && !layout.swapped.empty()) {
    StridedCopy other = GatherInto(own_batch, layout.swapped, layout.reduce, src);
    if (IsPlainCopy(other)) {
      p->gather = other;
      p->gathered = false;
      p->transposed = true;
    }
  }
  RILL_ASSIGN_OR_RETURN(const int64_t own, Volume(own_batch, eq));
  RILL_ASSIGN_OR_RETURN(const int64_t full, Volume(layout.batch, eq));
  RILL_ASSIGN_OR_RETURN(const int64_t rest, Volume(layout.rest, eq));
  RILL_ASSIGN_OR_RETURN(p->reduce, Volume(layout.reduce, eq));
  p->rows = own * rest;  // at most the operand's elements
  p->elements = p->rows;
  p->batch_stride = own == 1 && full != 1 ? 0 : rest;
  p->expanded = own != full && own != 1;
  if (p->expanded) {
    Axes from = own_batch, to = layout.batch;
    from.emplace_back(kFlatLabel, rest);
    to.emplace_back(kFlatLabel, rest);
    p->expand = LabelCopy(to, from, to);
    p->elements = MultiplyWithoutOverflow(full, rest);
    if (p->elements < 0) {
      return errors::InvalidArgument("Einsum '", eq.text, "': the broadcast operand ",
                                     shape_util::Str(shape), " overflows int64 expanded");
    }
  }
  return absl::OkStatus();
}

// The labels' roles for two operands: batch (in the output and both operands, or broadcast),
// free (in the output and one operand), contracted (in both operands only), reduced (in one
// operand only).
struct BinaryLayout {
  OperandLayout x, y;
  Axes free_x, contract, free_y, mid;
};
BinaryLayout PlanBinary(const EinsumLabels& r) {
  const std::vector<int>&xl = r.inputs[0], &yl = r.inputs[1];
  BinaryLayout b;
  OperandLayout *x = &b.x, *y = &b.y;
  Axes &free_x = b.free_x, &free_y = b.free_y, &contract = b.contract, *mid = &b.mid;
  for (int label : Distinct(r.output)) {
    const auto a = std::make_pair(label, r.size[label]);
    if (label >= kEinsumBroadcastLabel || (Contains(xl, label) && Contains(yl, label))) {
      x->batch.push_back(a);
    } else {
      (Contains(xl, label) ? free_x : free_y).push_back(a);
    }
  }
  y->batch = x->batch;
  for (int label : Distinct(xl)) {
    if (Contains(r.output, label)) continue;
    (Contains(yl, label) ? contract : x->reduce).emplace_back(label, r.size[label]);
  }
  for (int label : Distinct(yl)) {
    if (!Contains(r.output, label) && !Contains(xl, label)) {
      y->reduce.emplace_back(label, r.size[label]);
    }
  }
  auto join = [](const Axes& a, const Axes& b) {
    Axes j = a;
    j.insert(j.end(), b.begin(), b.end());
    return j;
  };
  x->rest = join(free_x, contract);
  x->swapped = join(contract, free_x);
  y->rest = join(contract, free_y);
  y->swapped = join(free_y, contract);
  *mid = x->batch;
  mid->insert(mid->end(), free_x.begin(), free_x.end());
  mid->insert(mid->end(), free_y.begin(), free_y.end());
  return b;
}

}  // namespace

bool IsPlainCopy(const StridedCopy& c) {
  if (c.src_base != 0 || c.dst_base != 0) return false;
  for (int d = 0; d < c.rank; ++d) {
    if (c.src_strides[d] != c.dst_strides[d]) return false;
  }
  return true;
}

absl::StatusOr<EinsumPlan> PlanEinsum(const EinsumEquation& eq,
                                      absl::Span<const shape_util::Dims> shapes) {
  RILL_ASSIGN_OR_RETURN(EinsumLabels r, ResolveEinsum(eq, shapes));
  EinsumPlan p;
  p.num_inputs = static_cast<int>(shapes.size());
  for (int label : r.output) p.out_dims.push_back(r.size[label]);
  Axes mid;
  if (p.num_inputs == 1) {
    OperandLayout x;
    for (int label : Distinct(r.output)) x.rest.emplace_back(label, r.size[label]);
    for (int label : Distinct(r.inputs[0])) {
      if (!Contains(r.output, label)) x.reduce.emplace_back(label, r.size[label]);
    }
    mid = x.rest;
    RILL_RETURN_IF_ERROR(PlanOperand(eq, r.inputs[0], shapes[0], x, &p.operand[0]));
  } else {
    const BinaryLayout b = PlanBinary(r);
    mid = b.mid;
    RILL_ASSIGN_OR_RETURN(p.batch, Volume(b.x.batch, eq));
    RILL_ASSIGN_OR_RETURN(p.m, Volume(b.free_x, eq));
    RILL_ASSIGN_OR_RETURN(p.k, Volume(b.contract, eq));
    RILL_ASSIGN_OR_RETURN(p.n, Volume(b.free_y, eq));
    RILL_RETURN_IF_ERROR(PlanOperand(eq, r.inputs[0], shapes[0], b.x, &p.operand[0]));
    RILL_RETURN_IF_ERROR(PlanOperand(eq, r.inputs[1], shapes[1], b.y, &p.operand[1]));
  }
  RILL_ASSIGN_OR_RETURN(p.mid_elements, Volume(mid, eq));
  const Axes out = AxesOf(r.output, p.out_dims);
  p.scatter = LabelCopy(mid, mid, out);
  p.zero_fill = Distinct(r.output).size() != r.output.size();
  p.direct = !p.zero_fill && IsPlainCopy(p.scatter);
  return p;
}

absl::StatusOr<EinsumPlan> EinsumPlanner::Prepare(OpKernelContext& ctx, Tensor** out) {
  RILL_RETURN_IF_ERROR(eq_.status());
  std::vector<shape_util::Dims> shapes;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    const auto d = ctx.input(i).shape().dim_sizes();
    shapes.emplace_back(d.begin(), d.end());
  }
  EinsumPlan p;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!planned_ || shapes != shapes_) {
      RILL_ASSIGN_OR_RETURN(plan_, PlanEinsum(*eq_, shapes));
      shapes_ = shapes;
      planned_ = true;
    }
    p = plan_;
  }
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(p.out_dims));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, out));
  return p;
}

}  // namespace rill
