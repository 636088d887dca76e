// CPU reductions (Sum, Mean, Max, Min, Prod, EuclideanNorm, All, Any, ArgMax), a full Mean's
// gradient
// (_MeanAllGrad) and Softmax / LogSoftmax. Reductions view the input as [outer, reduced, inner]
// blocks after merging neighbouring dims, and reduce one block of axes per pass with Eigen's row-
// and column-wise reductions.
#include <cmath>
#include <limits>
#include <memory>

#include "rill/core/kernel_util.h"
#include "rill/kernels/cpu/cwise.h"

namespace rill::cpu {
namespace {

template <typename T>
using RowMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// kEuclidean: sums the squares, then takes the root (EuclideanNorm).
enum class Reducer { kSum, kMean, kMax, kMin, kProd, kEuclidean };

template <typename T, Reducer R>
T Identity() {
  // As in TensorFlow: the max of nothing is -inf (the lowest value for integers).
  constexpr bool kInf = std::numeric_limits<T>::has_infinity;
  if constexpr (R == Reducer::kMax) {
    return kInf ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
  }
  if constexpr (R == Reducer::kMin) {
    return kInf ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
  }
  return R == Reducer::kProd ? T(1) : T(0);
}

// ORs (kAny) or ANDs [outer, r, inner] bools into [outer, inner], row by row in memory order.
template <bool kAny>
void ReduceBoolBlock(const bool* in, bool* out, int64_t outer, int64_t r, int64_t inner) {
  for (int64_t o = 0; o < outer; ++o) {
    bool* dst = out + o * inner;
    std::fill(dst, dst + inner, !kAny);
    for (int64_t k = 0; k < r; ++k) {
      const bool* row = in + (o * r + k) * inner;
      for (int64_t i = 0; i < inner; ++i) dst[i] = kAny ? (dst[i] || row[i]) : (dst[i] && row[i]);
    }
  }
}

// Reduces [outer, r, inner] numbers at `in` into [outer, inner] at `out`.
template <typename T, Reducer R>
void ReduceNumberBlock(const T* in, T* out, int64_t outer, int64_t r, int64_t inner) {
  if (r == 0) {
    std::fill(out, out + outer * inner, Identity<T, R>());
    return;
  }
  using Vec = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>;
  using RowVec = Eigen::Map<Eigen::Matrix<T, 1, Eigen::Dynamic>>;
  if (inner == 1) {
    Eigen::Map<const RowMatrix<T>> m(in, outer, r);
    if constexpr (R == Reducer::kMax)
      Vec(out, outer) = m.rowwise().maxCoeff();
    else if constexpr (R == Reducer::kMin)
      Vec(out, outer) = m.rowwise().minCoeff();
    else if constexpr (R == Reducer::kProd)
      Vec(out, outer) = m.rowwise().prod();
    else
      Vec(out, outer) = m.rowwise().sum();
    return;
  }
  for (int64_t o = 0; o < outer; ++o) {
    Eigen::Map<const RowMatrix<T>> m(in + o * r * inner, r, inner);
    RowVec dst(out + o * inner, inner);
    if constexpr (R == Reducer::kMax)
      dst = m.colwise().maxCoeff();
    else if constexpr (R == Reducer::kMin)
      dst = m.colwise().minCoeff();
    else if constexpr (R == Reducer::kProd)
      dst = m.colwise().prod();
    else
      dst = m.colwise().sum();
  }
}

template <typename T, Reducer R>
void ReduceBlock(const T* in, T* out, int64_t outer, int64_t r, int64_t inner) {
  if constexpr (std::is_same_v<T, bool>) {  // All (min) and Any (max): Eigen has no bool packets
    ReduceBoolBlock<R == Reducer::kMax>(in, out, outer, r, inner);
  } else {
    ReduceNumberBlock<T, R>(in, out, outer, r, inner);
  }
}

template <typename T, Reducer R>
class ReductionOp : public OpKernel {
 public:
  explicit ReductionOp(OpKernelConstruction& c)
      : OpKernel(c), keep_dims_(c.node().attr<bool>("keep_dims")) {}
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(ReductionGeometry geo, PrepareReduction(ctx, keep_dims_, &out));
    std::vector<int64_t> g;
    std::vector<bool> gr;
    for (auto [size, reduced] : geo.groups) {
      g.push_back(size);
      gr.push_back(reduced);
    }
    const int64_t reduced_count = geo.reduced_count;

    // Reduce the groups from the last to the first; each pass shrinks the buffer (an array,
    // not a vector: vector<bool> has no data()).
    std::unique_ptr<T[]> buf;
    const T* cur = x.base<T>();
    int64_t total = x.NumElements();
    if constexpr (R == Reducer::kEuclidean) {  // the squares, summed below
      buf = std::make_unique_for_overwrite<T[]>(total);
      for (int64_t i = 0; i < total; ++i) buf[i] = cur[i] * cur[i];
      cur = buf.get();
    }
    int passes = 0;
    for (int k = static_cast<int>(g.size()) - 1; k >= 0; --k) {
      if (!gr[k]) continue;
      int64_t inner = 1, outer = 1;
      for (size_t j = k + 1; j < g.size(); ++j) inner *= gr[j] ? 1 : g[j];
      for (int j = 0; j < k; ++j) outer *= g[j];
      // Earlier passes already reduced the groups after k.
      auto next = std::make_unique_for_overwrite<T[]>(outer * inner);
      constexpr Reducer kPass = R == Reducer::kMean || R == Reducer::kEuclidean ? Reducer::kSum : R;
      ReduceBlock<T, kPass>(cur, next.get(), outer, g[k], inner);
      buf = std::move(next);
      cur = buf.get();
      total = outer * inner;
      ++passes;
    }
    T* o = out->base<T>();
    const int64_t n = passes == 0 ? total : out->NumElements();
    if (n > 0) std::memcpy(o, cur, n * sizeof(T));  // empty tensors may have no buffer
    if constexpr (R == Reducer::kMean) {
      if (reduced_count > 0) {
        AsArray<T>(out) /= static_cast<T>(reduced_count);
      } else if constexpr (std::is_floating_point_v<T>) {
        AsArray<T>(out).setConstant(std::numeric_limits<T>::quiet_NaN());
      }
    }
    if constexpr (R == Reducer::kEuclidean) {
      for (int64_t i = 0; i < out->NumElements(); ++i) {
        o[i] = std::sqrt(o[i]);
      }
    }
    return absl::OkStatus();
  }

 private:
  bool keep_dims_;
};

// ArgMax, or ArgMin when kMin; the first index among ties.
template <typename T, typename Index, bool kMin>
class ArgMaxOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(AxisGeometry geo, PrepareArgMax(ctx, &out));
    const int64_t outer = geo.outer, r = geo.r, inner = geo.inner;
    const T* in = x.base<T>();
    Index* o = out->base<Index>();
    for (int64_t a = 0; a < outer; ++a) {
      for (int64_t b = 0; b < inner; ++b) {
        const T* p = in + a * r * inner + b;
        int64_t best = 0;
        for (int64_t k = 1; k < r; ++k)
          if (kMin ? p[k * inner] < p[best * inner] : p[k * inner] > p[best * inner]) best = k;
        o[a * inner + b] = static_cast<Index>(best);
      }
    }
    return absl::OkStatus();
  }
};

template <typename T, bool kMin>
class ArgMaxDispatch : public OpKernel {
 public:
  explicit ArgMaxDispatch(OpKernelConstruction& c) : OpKernel(c) {
    if (c.node().output_type(0) == DT_INT32) {
      impl_ = std::make_unique<ArgMaxOp<T, int32_t, kMin>>(c);
    } else {
      impl_ = std::make_unique<ArgMaxOp<T, int64_t, kMin>>(c);
    }
  }
  absl::Status Compute(OpKernelContext& ctx) override { return impl_->Compute(ctx); }

 private:
  std::unique_ptr<OpKernel> impl_;
};

// Softmax over the last dim, stabilised by subtracting each row's max.
template <typename T, bool kLog>
class SoftmaxOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const int64_t cols, PrepareSoftmax(ctx, &out));
    if (cols == 0) return absl::OkStatus();
    const int64_t rows = x.NumElements() / cols;
    using Arr = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    Eigen::Map<const Arr> in(x.base<T>(), rows, cols);
    Eigen::Map<Arr> o(out->base<T>(), rows, cols);
    o = in.colwise() - in.rowwise().maxCoeff();
    if constexpr (kLog) {
      auto lse = o.exp().rowwise().sum().log().eval();
      o.colwise() -= lse;
    } else {
      o = o.exp();
      auto sum = o.rowwise().sum().eval();
      o.colwise() /= sum;
    }
    return absl::OkStatus();
  }
};

#define RILL_REG_REDUCE(T, unused)                                          \
  RILL_REGISTER_KERNEL("Sum", DEVICE_CPU, "T", DataTypeToEnum<T>::value,    \
                       ReductionOp<T, Reducer::kSum>);                      \
  RILL_REGISTER_KERNEL("Mean", DEVICE_CPU, "T", DataTypeToEnum<T>::value,   \
                       ReductionOp<T, Reducer::kMean>);                     \
  RILL_REGISTER_KERNEL("Max", DEVICE_CPU, "T", DataTypeToEnum<T>::value,    \
                       ReductionOp<T, Reducer::kMax>);                      \
  RILL_REGISTER_KERNEL("Min", DEVICE_CPU, "T", DataTypeToEnum<T>::value,    \
                       ReductionOp<T, Reducer::kMin>);                      \
  RILL_REGISTER_KERNEL("Prod", DEVICE_CPU, "T", DataTypeToEnum<T>::value,   \
                       ReductionOp<T, Reducer::kProd>);                     \
  RILL_REGISTER_KERNEL("ArgMax", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       ArgMaxDispatch<T, false>);                           \
  RILL_REGISTER_KERNEL("ArgMin", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       ArgMaxDispatch<T, true>);
RILL_FOR_NUMBER_TYPES(RILL_REG_REDUCE, 0)
#define RILL_REG_EUCLIDEAN(T, unused)                                              \
  RILL_REGISTER_KERNEL("EuclideanNorm", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       ReductionOp<T, Reducer::kEuclidean>);
RILL_FOR_FLOAT_TYPES(RILL_REG_EUCLIDEAN, 0)
// On bools, All is the min and Any the max (the min of nothing is true, the max false).
RILL_REGISTER_KERNEL("All", DEVICE_CPU, "", DT_INVALID, ReductionOp<bool, Reducer::kMin>);
RILL_REGISTER_KERNEL("Any", DEVICE_CPU, "", DT_INVALID, ReductionOp<bool, Reducer::kMax>);
// The gradient of a Mean down to one element: dy / size in every element.
template <typename T>
class MeanAllGradOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_RETURN_IF_ERROR(PrepareMeanAllGrad(ctx, &out));
    const T v = ctx.input(0).base<T>()[0] / static_cast<T>(out->NumElements());
    AsArray<T>(out).setConstant(v);
    return absl::OkStatus();
  }
};

// sum(t^2) / 2 (0 for an empty t).
template <typename T>
class L2LossOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({}), &out));
    out->base<T>()[0] = AsArray<T>(ctx.input(0)).square().sum() / T(2);
    return absl::OkStatus();
  }
};

#define RILL_REG_SOFTMAX(T, unused)                                                                \
  RILL_REGISTER_KERNEL("Softmax", DEVICE_CPU, "T", DataTypeToEnum<T>::value, SoftmaxOp<T, false>); \
  RILL_REGISTER_KERNEL("LogSoftmax", DEVICE_CPU, "T", DataTypeToEnum<T>::value,                    \
                       SoftmaxOp<T, true>);                                                        \
  RILL_REGISTER_KERNEL("_MeanAllGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value,                  \
                       MeanAllGradOp<T>);                                                          \
  RILL_REGISTER_KERNEL("L2Loss", DEVICE_CPU, "T", DataTypeToEnum<T>::value, L2LossOp<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_SOFTMAX, 0)

}  // namespace
}  // namespace rill::cpu
