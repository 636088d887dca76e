// CPU kernel of _FusedElementwise (core/fused_elementwise.h): the program runs over blocks
// of the output small enough to stay in cache, each step one vectorized loop over the
// block with the Eigen expression the replaced op's kernel uses, so the chain costs one
// pass over memory instead of one per op. Inputs as large as the output are read in place;
// a scalar, a vector along the last dim (a bias) or any other broadcast input is laid out
// per block first.
#include <algorithm>
#include <vector>

#include "Eigen/Core"
#include "rill/core/fused_elementwise.h"
#include "rill/core/kernel.h"
#include "rill/core/point_activation.h"
#include "rill/core/shape_inference.h"

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

// A kernel run's buffers.
template <typename T>
struct Buffers {
  std::vector<Operand<T>> operands;
  std::vector<T> scratch;
  std::vector<const T*> registers;
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
  if (t.NumElements() == out.num_elements()) {
    o.layout = Layout::kFull;
  } else if (t.NumElements() == 1) {
    o.layout = Layout::kScalar;
    Grow(&o.block, kBlock);
    std::fill(o.block.begin(), o.block.begin() + kBlock, o.data[0]);
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
      return o.block.data();
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

template <typename T>
void Apply(ElementwiseOp op, const T* a, const T* b, T* r, int64_t n) {
  using A = Eigen::Array<T, Eigen::Dynamic, 1>;
  Eigen::Map<const A> x(a, n);
  Eigen::Map<A> y(r, n);
  auto other = [&] { return Eigen::Map<const A>(b, n); };
  switch (op) {
    case ElementwiseOp::kAdd:
      y = x + other();
      break;
    case ElementwiseOp::kSub:
      y = x - other();
      break;
    case ElementwiseOp::kMul:
      y = x * other();
      break;
    case ElementwiseOp::kDiv:
      y = x / other();
      break;
    case ElementwiseOp::kMaximum:
      y = x.max(other());
      break;
    case ElementwiseOp::kMinimum:
      y = x.min(other());
      break;
    case ElementwiseOp::kRelu:
      y = x.max(T(0));
      break;
    case ElementwiseOp::kRelu6:
      for (int64_t j = 0; j < n; ++j)
        r[j] = ApplyPointActivation<PointActivation::kRelu6>(a[j], T(0));
      break;
    case ElementwiseOp::kNeg:
      y = -x;
      break;
    case ElementwiseOp::kAbs:
      y = x.abs();
      break;
    case ElementwiseOp::kSquare:
      y = x.square();
      break;
    case ElementwiseOp::kIdentity:
      y = x;
      break;
    case ElementwiseOp::kCount:
      break;
  }
}

template <typename T>
class FusedElementwiseOp : public OpKernel {
 public:
  explicit FusedElementwiseOp(OpKernelConstruction& c)
      : OpKernel(c),
        steps_(ParseElementwiseProgram(c.node().attr<std::vector<int64_t>>("program"),
                                       c.node().num_inputs())) {}
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_RETURN_IF_ERROR(steps_.status());
    const int n = ctx.num_inputs();
    TensorShape shape = ctx.input(0).shape();
    for (int i = 1; i < n; ++i) {
      RILL_ASSIGN_OR_RETURN(shape, shape_fns::Broadcast(shape, ctx.input(i).shape()));
    }
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &out));
    const int64_t total = out->NumElements();
    if (total == 0) return absl::OkStatus();
    // Per thread and kept: steady runs allocate nothing (a kernel may run on several
    // threads at once).
    thread_local Buffers<T> buffers;
    const std::vector<ElementwiseStep>& steps = *steps_;
    std::vector<Operand<T>>& in = buffers.operands;
    if (in.size() < static_cast<size_t>(n)) in.resize(n);
    for (int i = 0; i < n; ++i) SetOperand(ctx.input(i), shape, &in[i]);
    std::vector<T>& scratch = buffers.scratch;
    if (scratch.size() < steps.size() * kBlock) scratch.resize(steps.size() * kBlock);
    std::vector<const T*>& reg = buffers.registers;
    if (reg.size() < n + steps.size()) reg.resize(n + steps.size());
    for (int64_t start = 0; start < total; start += kBlock) {
      const int64_t len = std::min(kBlock, total - start);
      for (int i = 0; i < n; ++i) reg[i] = Values(in[i], shape, start, len);
      for (size_t k = 0; k < steps.size(); ++k) {
        const ElementwiseStep& s = steps[k];
        T* r = k + 1 == steps.size() ? out->base<T>() + start : scratch.data() + k * kBlock;
        Apply<T>(s.op, reg[s.a], s.b >= 0 ? reg[s.b] : nullptr, r, len);
        reg[n + k] = r;
      }
    }
    return absl::OkStatus();
  }

 private:
  const absl::StatusOr<std::vector<ElementwiseStep>> steps_;
};

RILL_REGISTER_KERNEL("_FusedElementwise", DEVICE_CPU, "T", DT_FLOAT, FusedElementwiseOp<float>);
RILL_REGISTER_KERNEL("_FusedElementwise", DEVICE_CPU, "T", DT_DOUBLE, FusedElementwiseOp<double>);

}  // namespace
}  // namespace rill::cpu
