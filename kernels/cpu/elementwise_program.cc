// The block interpreter behind ElementwiseProgram: the program runs over blocks of the
// output small enough to stay in cache, each step one vectorized loop over the block with
// the Eigen expression the replaced op's kernel uses, so the chain costs one pass over
// memory instead of one per op. Inputs as large as the output are read in place; a
// scalar stays one value; a vector along the last dim (a bias) or any other broadcast
// input is laid out per block first.
#include "rill/kernels/cpu/elementwise_program.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "Eigen/Core"
#include "rill/core/point_activation.h"

namespace rill::cpu {
namespace {

constexpr int64_t kBlock = 512;

template <typename V>
void Grow(V* v, size_t n) {
  if (v->size() < n) v->resize(n);
}

// How an input's elements line up with the output's (flat, row-major).
// kOuter: equal to the output's leading dims, 1 in the others (a mean over the last dims
// kept as 1s, as normalizations broadcast it): one value per run of `period` outputs.
enum class Layout { kFull, kScalar, kLastDim, kOuter, kStrided };

template <typename T>
struct Operand {
  Layout layout = Layout::kFull;
  const T* data = nullptr;
  int64_t period = 1;            // kLastDim: the output's last dim; kOuter: the run
  std::vector<int64_t> strides;  // kStrided: per output dim, 0 where broadcast
  std::vector<T> block;          // the block's values, unless kFull
};

// For t that equals `out` in its leading dims and is 1 in the rest: the number of outputs
// per value of t (the product of those other dims of out); else 0.
int64_t OuterRun(const Tensor& t, const TensorShape& out) {
  const int rank = out.dims(), offset = rank - t.dims();
  int k = rank;  // t is 1 from dim k on
  while (k > 0 && (k - 1 < offset || t.dim_size(k - 1 - offset) == 1)) --k;
  int64_t run = 1;
  for (int d = 0; d < rank; ++d) {
    const int64_t td = d < offset ? 1 : t.dim_size(d - offset);
    if (d < k && td != out.dim_size(d)) return 0;
    if (d >= k) run *= out.dim_size(d);
  }
  return run;
}

// A register's values over a block: an array, or one value for every element (a scalar
// input, or a step over scalars), which the loops broadcast in a vector register instead
// of reading a block of copies.
template <typename T>
struct Reg {
  const T* p = nullptr;
  T s = T(0);
  bool scalar = false;
};

#if RILL_WITH_OPENMP
extern "C" int omp_get_max_threads();

// Below this many outputs a chain runs on the calling thread: a team's start costs more.
constexpr int64_t kTeamElements = int64_t{1} << 16;

int TeamSize(int64_t total) { return total >= kTeamElements ? omp_get_max_threads() : 1; }
#else
int TeamSize(int64_t) { return 1; }
#endif

// A kernel run's buffers.
template <typename T>
struct Buffers {
  std::vector<Operand<T>> operands;
  std::vector<T> scratch;
  std::vector<Reg<T>> registers;
};

// *o for input t of an output of shape `out` (its vectors reused: they only grow).
template <typename T>
void SetOperand(const Tensor& t, const TensorShape& out, Operand<T>* op) {
  Operand<T>& o = *op;
  o.data = t.base<T>();
  o.period = 1;
  const int rank = out.dims(), offset = rank - t.dims();
  int first = 0;  // t's first dim that is not 1
  while (first < t.dims() && t.dim_size(first) == 1) ++first;
  if (t.NumElements() == 1) {
    o.layout = Layout::kScalar;  // read as a Reg's value, no block (also for a 1-element output)
  } else if (t.NumElements() == out.num_elements()) {
    o.layout = Layout::kFull;
  } else if (first == t.dims() - 1 && t.dim_size(first) == out.dim_size(rank - 1)) {
    o.layout = Layout::kLastDim;
    o.period = out.dim_size(rank - 1);
    // A short vector tiled once over a block and a period: any block's values start in it.
    const int64_t tiled = o.period <= kBlock ? kBlock + o.period : kBlock;
    Grow(&o.block, tiled);
    for (int64_t j = 0; o.period <= kBlock && j < tiled; j += o.period) {
      std::copy(o.data, o.data + std::min(o.period, tiled - j), o.block.data() + j);
    }
  } else if (int64_t run = OuterRun(t, out); run > 0) {
    o.layout = Layout::kOuter;
    o.period = run;
    Grow(&o.block, kBlock);
  } else {
    o.layout = Layout::kStrided;
    Grow(&o.strides, kMaxTensorRank);
    std::fill(o.strides.begin(), o.strides.end(), 0);
    int64_t stride = 1;
    for (int d = rank - 1; d >= offset; --d) {
      const int64_t size = t.dim_size(d - offset);
      if (size != 1) o.strides[d] = stride;
      stride *= size;
    }
    Grow(&o.block, kBlock);
  }
}

// The operand's values for output elements [start, start + n).
template <typename T>
const T* Values(Operand<T>& o, const TensorShape& out, int64_t start, int64_t n) {
  switch (o.layout) {
    case Layout::kFull:
      return o.data + start;
    case Layout::kScalar:
      return o.data;
    case Layout::kLastDim: {
      const int64_t c = start % o.period;
      if (c + n <= o.period) return o.data + c;  // within one period
      if (o.period <= kBlock) return o.block.data() + c;
      const int64_t head = o.period - c;  // a long vector wraps once within a block
      std::copy(o.data + c, o.data + o.period, o.block.data());
      std::copy(o.data, o.data + (n - head), o.block.data() + head);
      return o.block.data();
    }
    case Layout::kOuter: {
      int64_t q = start / o.period, rem = start % o.period;
      for (int64_t j = 0; j < n; ++q, rem = 0) {
        const int64_t len = std::min(o.period - rem, n - j);
        std::fill(o.block.data() + j, o.block.data() + j + len, o.data[q]);
        j += len;
      }
      return o.block.data();
    }
    case Layout::kStrided: {
      // The output index of `start`, then counted up like an odometer.
      const int rank = out.dims();
      int64_t idx[kMaxTensorRank] = {0}, at = 0, rest = start;
      for (int d = rank - 1; d >= 0; --d) {
        idx[d] = rest % out.dim_size(d);
        rest /= out.dim_size(d);
        at += idx[d] * o.strides[d];
      }
      for (int64_t j = 0; j < n; ++j) {
        o.block[j] = o.data[at];
        for (int d = rank - 1; d >= 0; --d) {
          at += o.strides[d];
          if (++idx[d] < out.dim_size(d)) break;
          at -= idx[d] * o.strides[d];
          idx[d] = 0;
        }
      }
      return o.block.data();
    }
  }
  return nullptr;
}

// r = f(a, b) over n elements; f is the Eigen expression of the op, written once for the
// three shapes an operand pair can take.
template <typename T, typename F>
void Binary(const Reg<T>& a, const Reg<T>& b, T* r, int64_t n, F f) {
  using A = Eigen::Array<T, Eigen::Dynamic, 1>;
  Eigen::Map<A> y(r, n);
  if (b.scalar) {
    y = f(Eigen::Map<const A>(a.p, n), A::Constant(n, b.s));
  } else if (a.scalar) {
    y = f(A::Constant(n, a.s), Eigen::Map<const A>(b.p, n));
  } else {
    y = f(Eigen::Map<const A>(a.p, n), Eigen::Map<const A>(b.p, n));
  }
}

template <typename T, typename F>
void Unary(const T* a, T* r, int64_t n, F f) {
  using A = Eigen::Array<T, Eigen::Dynamic, 1>;
  Eigen::Map<A> y(r, n);
  y = f(Eigen::Map<const A>(a, n));
}

// r = op(a, b) over n elements (a is never a scalar for a unary op: see Step).
template <typename T>
void Apply(ElementwiseOp op, const Reg<T>& a, const Reg<T>& b, T* r, int64_t n) {
  switch (op) {
    case ElementwiseOp::kAdd:
      return Binary(a, b, r, n, [](const auto& x, const auto& y) { return x + y; });
    case ElementwiseOp::kSub:
      return Binary(a, b, r, n, [](const auto& x, const auto& y) { return x - y; });
    case ElementwiseOp::kMul:
      return Binary(a, b, r, n, [](const auto& x, const auto& y) { return x * y; });
    case ElementwiseOp::kDiv:
      return Binary(a, b, r, n, [](const auto& x, const auto& y) { return x / y; });
    case ElementwiseOp::kMaximum:
      return Binary(a, b, r, n, [](const auto& x, const auto& y) { return x.max(y); });
    case ElementwiseOp::kMinimum:
      return Binary(a, b, r, n, [](const auto& x, const auto& y) { return x.min(y); });
    case ElementwiseOp::kRelu:
      return Unary(a.p, r, n, [](const auto& x) { return x.max(T(0)); });
    case ElementwiseOp::kRelu6:
      for (int64_t j = 0; j < n; ++j) {
        r[j] = ApplyPointActivation<PointActivation::kRelu6>(a.p[j], T(0));
      }
      return;
    case ElementwiseOp::kNeg:
      return Unary(a.p, r, n, [](const auto& x) { return -x; });
    case ElementwiseOp::kAbs:
      return Unary(a.p, r, n, [](const auto& x) { return x.abs(); });
    case ElementwiseOp::kSquare:
      return Unary(a.p, r, n, [](const auto& x) { return x.square(); });
    case ElementwiseOp::kIdentity:
      return Unary(a.p, r, n, [](const auto& x) { return x; });
    case ElementwiseOp::kHardSwish:  // as Add, Maximum, Minimum, Mul, RealDiv compute it
      return Unary(a.p, r, n,
                   [](const auto& x) { return x * (x + T(3)).max(T(0)).min(T(6)) / T(6); });
    case ElementwiseOp::kCount:
      return;
  }
}

// op(a, b) on single values, as Eigen's expressions compute one element (std::max and
// std::min for Maximum and Minimum).
template <typename T>
T ScalarStep(ElementwiseOp op, T a, T b) {
  switch (op) {
    case ElementwiseOp::kAdd:
      return a + b;
    case ElementwiseOp::kSub:
      return a - b;
    case ElementwiseOp::kMul:
      return a * b;
    case ElementwiseOp::kDiv:
      return a / b;
    case ElementwiseOp::kMaximum:
      return std::max(a, b);
    case ElementwiseOp::kMinimum:
      return std::min(a, b);
    case ElementwiseOp::kRelu:
      return std::max(a, T(0));
    case ElementwiseOp::kRelu6:
      return ApplyPointActivation<PointActivation::kRelu6>(a, T(0));
    case ElementwiseOp::kNeg:
      return -a;
    case ElementwiseOp::kAbs:
      return std::abs(a);
    case ElementwiseOp::kSquare:
      return a * a;
    case ElementwiseOp::kIdentity:
      return a;
    case ElementwiseOp::kHardSwish:
      return a * std::min(std::max(a + T(3), T(0)), T(6)) / T(6);
    case ElementwiseOp::kCount:
      break;
  }
  return a;
}

// One step over a block: into `r` (*out points at it), or, where every operand is a
// scalar, into *out's value itself (computed on one element).
template <typename T>
void Step(const ElementwiseStep& s, std::vector<Reg<T>>& reg, Reg<T>* out, T* r, int64_t n) {
  static const Reg<T> kNone;
  const Reg<T>& a = reg[s.a];
  const Reg<T>& b = s.b >= 0 ? reg[s.b] : kNone;
  // Fields written one by one: a whole Reg stored and read back field by field stalls
  // store forwarding (measured on chains of scalars).
  if (a.scalar && (s.b < 0 || b.scalar)) {
    out->s = ScalarStep(s.op, a.s, b.s);
    out->scalar = true;
    return;
  }
  Apply<T>(s.op, a, b, r, n);
  out->p = r;
  out->scalar = false;
}

}  // namespace

SlotPlan PlanSlots(const std::vector<ElementwiseStep>& steps, int num_inputs) {
  const int m = static_cast<int>(steps.size());
  std::vector<int> last_read(m, -1);
  for (int k = 0; k < m; ++k) {
    for (int r : {steps[k].a, steps[k].b}) {
      if (r >= num_inputs) last_read[r - num_inputs] = k;
    }
  }
  SlotPlan plan;
  plan.slot.assign(m, -1);
  std::vector<int> free_slots;
  for (int k = 0; k + 1 < m; ++k) {
    // A slot whose value step k reads last may take step k's result: an elementwise
    // loop reads each element before it writes it.
    for (int r : {steps[k].a, steps[k].b}) {
      const int j = r - num_inputs;
      if (j >= 0 && last_read[j] == k && plan.slot[j] >= 0 &&
          std::find(free_slots.begin(), free_slots.end(), plan.slot[j]) == free_slots.end()) {
        free_slots.push_back(plan.slot[j]);
      }
    }
    if (free_slots.empty()) {
      plan.slot[k] = plan.num_slots++;
    } else {
      plan.slot[k] = free_slots.back();
      free_slots.pop_back();
    }
  }
  return plan;
}

template <typename T>
void ElementwiseProgram<T>::Run(absl::FunctionRef<const Tensor&(int)> input,
                                const TensorShape& shape, T* result) const {
  const int64_t total = shape.num_elements();
  if (total == 0) return;
  const int64_t blocks = (total + kBlock - 1) / kBlock;
  const int teams = TeamSize(total);
  if (teams <= 1) {
    RunBlocks(input, shape, 0, blocks, result);
    return;
  }
#if RILL_WITH_OPENMP
  // The team oneDNN's convolutions use: its threads are the ones waiting (spinning) when
  // a chain that follows a convolution starts, so the chain takes no core from them.
#pragma omp parallel for num_threads(teams) schedule(static)
  for (int t = 0; t < teams; ++t) {
    RunBlocks(input, shape, blocks * t / teams, blocks * (t + 1) / teams, result);
  }
#endif
}

template <typename T>
void ElementwiseProgram<T>::RunBlocks(absl::FunctionRef<const Tensor&(int)> input,
                                      const TensorShape& shape, int64_t first, int64_t last,
                                      T* result) const {
  // Per thread and kept: steady runs allocate nothing (a kernel may run on several
  // threads at once).
  thread_local Buffers<T> buffers;
  const int n = num_inputs_;
  std::vector<Operand<T>>& in = buffers.operands;
  if (in.size() < static_cast<size_t>(n)) in.resize(n);
  for (int i = 0; i < n; ++i) SetOperand(input(i), shape, &in[i]);
  std::vector<T>& scratch = buffers.scratch;
  Grow(&scratch, slots_.num_slots * kBlock);
  std::vector<Reg<T>>& reg = buffers.registers;
  Grow(&reg, n + steps_.size());
  for (int i = 0; i < n; ++i) {
    reg[i] = in[i].layout == Layout::kScalar ? Reg<T>{nullptr, in[i].data[0], true} : Reg<T>{};
  }
  const int64_t total = shape.num_elements();
  for (int64_t start = first * kBlock; start < std::min(total, last * kBlock); start += kBlock) {
    const int64_t len = std::min(kBlock, total - start);
    for (int i = 0; i < n; ++i) {
      if (!reg[i].scalar) reg[i].p = Values(in[i], shape, start, len);
    }
    for (size_t k = 0; k < steps_.size(); ++k) {
      const int slot = slots_.slot[k];
      T* r = slot < 0 ? result + start : scratch.data() + slot * kBlock;
      Step<T>(steps_[k], reg, &reg[n + k], r, len);
    }
    // A chain of scalars only (a constant the optimizer did not fold) fills the block.
    const Reg<T>& last_reg = reg[n + steps_.size() - 1];
    if (last_reg.scalar) std::fill(result + start, result + start + len, last_reg.s);
  }
}

template class ElementwiseProgram<float>;
template class ElementwiseProgram<double>;

}  // namespace rill::cpu
