// CPU kernels of FractionalMaxPool, FractionalAvgPool and their gradients (CPU only, as
// TensorFlow's: the region loops are irregular and the sequences are drawn on the host).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "rill/core/cast_value.h"
#include "rill/core/fractional_pool.h"
#include "rill/core/kernel_util.h"
#include "rill/core/shape_inference.h"

namespace rill::cpu {
namespace {

// An NHWC input cut into regions by two pooling sequences.
struct Regions {
  int64_t batch, rows, cols, depth;
  absl::Span<const int64_t> row_seq, col_seq;
  bool overlapping;
  int64_t out_rows() const { return static_cast<int64_t>(row_seq.size()) - 1; }
  int64_t out_cols() const { return static_cast<int64_t>(col_seq.size()) - 1; }
};

// fn(output position of region (b, r, c) without the channel, input position of each of its
// elements without the channel), regions in output order, elements row by row.
template <typename Fn>
void ForEachRegion(const Regions& g, Fn fn) {
  for (int64_t b = 0; b < g.batch; ++b)
    for (int64_t r = 0; r < g.out_rows(); ++r) {
      const PoolRegion rr = RegionOf(g.row_seq, r, g.rows, g.overlapping);
      for (int64_t c = 0; c < g.out_cols(); ++c) {
        const PoolRegion cc = RegionOf(g.col_seq, c, g.cols, g.overlapping);
        fn((b * g.out_rows() + r) * g.out_cols() + c, [&](auto each) {
          for (int64_t i = rr.first; i <= rr.last; ++i)
            for (int64_t j = cc.first; j <= cc.last; ++j) each((b * g.rows + i) * g.cols + j);
        });
      }
    }
}

absl::Status CheckRank4(const Tensor& t, const char* what) {
  if (t.dims() != 4) {
    return errors::InvalidArgument(what, " must be 4-D (NHWC), got shape ",
                                   t.shape().DebugString());
  }
  return absl::OkStatus();
}

template <typename T, bool kMax>
class FractionalPoolOp : public RandomKernelBase {
 public:
  explicit FractionalPoolOp(OpKernelConstruction& c)
      : RandomKernelBase(c),
        ratio_(c.node().attr<std::vector<float>>("pooling_ratio")),
        pseudo_random_(c.node().attr<bool>("pseudo_random")),
        overlapping_(c.node().attr<bool>("overlapping")),
        deterministic_(c.node().attr<bool>("deterministic")) {}
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    RILL_RETURN_IF_ERROR(CheckRank4(x, "value"));
    const char* names[] = {"batch", "rows", "columns", "channels"};
    int64_t out[4];
    for (int d = 0; d < 4; ++d) {
      RILL_ASSIGN_OR_RETURN(out[d], FractionalOutputSize(x.dim_size(d), ratio_[d], names[d]));
    }
    // A deterministic node draws from the same stream on every run.
    PhiloxDraws draws(key(), deterministic_ ? 0 : Reserve(1) + 1);
    const auto row_seq = FractionalPoolingSequence(x.dim_size(1), out[1], pseudo_random_, draws);
    const auto col_seq = FractionalPoolingSequence(x.dim_size(2), out[2], pseudo_random_, draws);
    Tensor *y, *rows, *cols;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({out[0], out[1], out[2], out[3]}), &y));
    RILL_RETURN_IF_ERROR(ctx.allocate_output(1, TensorShape({out[1] + 1}), &rows));
    RILL_RETURN_IF_ERROR(ctx.allocate_output(2, TensorShape({out[2] + 1}), &cols));
    std::memcpy(rows->data(), row_seq.data(), rows->TotalBytes());
    std::memcpy(cols->data(), col_seq.data(), cols->TotalBytes());
    const Regions g{x.dim_size(0), x.dim_size(1), x.dim_size(2), x.dim_size(3),
                    row_seq,       col_seq,       overlapping_};
    Pool(g, x.base<T>(), y->base<T>());
    return absl::OkStatus();
  }

 private:
  // A max starts from the type's lowest value and takes only greater elements (so a NaN
  // never wins); an average divides the region's sum by its size in T.
  static void Pool(const Regions& g, const T* x, T* y) {
    const int64_t D = g.depth;
    ForEachRegion(g, [&](int64_t o, auto elements) {
      T* acc = y + o * D;
      std::fill(acc, acc + D, kMax ? std::numeric_limits<T>::lowest() : T(0));
      int64_t count = 0;
      elements([&](int64_t i) {
        for (int64_t d = 0; d < D; ++d) {
          const T v = x[i * D + d];
          acc[d] = kMax ? (v > acc[d] ? v : acc[d]) : acc[d] + v;
        }
        ++count;
      });
      if (kMax) return;
      for (int64_t d = 0; d < D; ++d) {  // an integer count may not fit T
        if constexpr (std::is_integral_v<T>) {
          acc[d] = static_cast<T>(static_cast<int64_t>(acc[d]) / count);
        } else {
          acc[d] /= static_cast<T>(count);
        }
      }
    });
  }

  std::vector<float> ratio_;
  bool pseudo_random_, overlapping_, deterministic_;
};

// Checks out_backprop (input `grad`, NHWC with the input's batch and channels) and the
// sequences after it against the input's shape `in`.
absl::StatusOr<Regions> GradRegions(OpKernelContext& ctx, const TensorShape& in, int grad,
                                    bool overlapping) {
  const Tensor& dy = ctx.input(grad);
  RILL_RETURN_IF_ERROR(CheckRank4(dy, "out_backprop"));
  if (in.dims() != 4) {
    return errors::InvalidArgument("the pooled input must be 4-D (NHWC), got shape ",
                                   in.DebugString());
  }
  if (dy.dim_size(0) != in.dim_size(0) || dy.dim_size(3) != in.dim_size(3)) {
    return errors::InvalidArgument("out_backprop ", dy.shape().DebugString(),
                                   " must have the batch and channels of the pooled input ",
                                   in.DebugString());
  }
  RILL_RETURN_IF_ERROR(CheckPoolingSequence(ctx.input(grad + 1), in.dim_size(1), dy.dim_size(1),
                                            "row_pooling_sequence"));
  RILL_RETURN_IF_ERROR(CheckPoolingSequence(ctx.input(grad + 2), in.dim_size(2), dy.dim_size(2),
                                            "col_pooling_sequence"));
  const Tensor& rs = ctx.input(grad + 1);
  const Tensor& cs = ctx.input(grad + 2);
  return Regions{in.dim_size(0),
                 in.dim_size(1),
                 in.dim_size(2),
                 in.dim_size(3),
                 {rs.base<int64_t>(), static_cast<size_t>(rs.NumElements())},
                 {cs.base<int64_t>(), static_cast<size_t>(cs.NumElements())},
                 overlapping};
}

// Each region's gradient goes to its first maximal element (the forward's rule: later
// elements win only when greater), so overlapping regions may add on one element.
template <typename T>
class FractionalMaxPoolGradOp : public OpKernel {
 public:
  explicit FractionalMaxPoolGradOp(OpKernelConstruction& c)
      : OpKernel(c), overlapping_(c.node().attr<bool>("overlapping")) {}
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    RILL_RETURN_IF_ERROR(CheckRank4(x, "orig_input"));
    RILL_ASSIGN_OR_RETURN(const Regions g, GradRegions(ctx, x.shape(), 2, overlapping_));
    if (ctx.input(1).shape() != ctx.input(2).shape()) {
      return errors::InvalidArgument("orig_output ", ctx.input(1).shape().DebugString(),
                                     " must have out_backprop's shape ",
                                     ctx.input(2).shape().DebugString());
    }
    Tensor* dx;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &dx));
    std::memset(dx->data(), 0, dx->TotalBytes());
    const T* xv = x.base<T>();
    const T* dy = ctx.input(2).base<T>();
    T* o = dx->base<T>();
    const int64_t D = g.depth;
    std::vector<int64_t> best(D);
    ForEachRegion(g, [&](int64_t out, auto elements) {
      bool first = true;
      elements([&](int64_t i) {
        for (int64_t d = 0; d < D; ++d) {
          if (first || xv[i * D + d] > xv[best[d]]) best[d] = i * D + d;
        }
        first = false;
      });
      for (int64_t d = 0; d < D; ++d) o[best[d]] += dy[out * D + d];
    });
    return absl::OkStatus();
  }

 private:
  bool overlapping_;
};

// The regions covering each of `n` input rows: [lo, hi] (regions are ordered, so those
// covering a row are consecutive; overlapping ones share a boundary row), and each region's
// size. A row past the last region has lo > hi.
struct Cover {
  std::vector<int64_t> lo, hi, size;
};
Cover CoverOf(absl::Span<const int64_t> seq, int64_t n, bool overlapping) {
  const int64_t regions = static_cast<int64_t>(seq.size()) - 1;
  Cover c{std::vector<int64_t>(n, regions), std::vector<int64_t>(n, -1),
          std::vector<int64_t>(regions)};
  for (int64_t r = 0; r < regions; ++r) {
    const PoolRegion p = RegionOf(seq, r, n, overlapping);
    c.size[r] = p.last - p.first + 1;
    for (int64_t i = p.first; i <= p.last; ++i) {
      c.lo[i] = std::min(c.lo[i], r);
      c.hi[i] = r;
    }
  }
  return c;
}

// Each element's gradient gathered from the regions covering it, each region's shared
// evenly among its elements, summed in double and rounded once (TensorFlow's arithmetic,
// integer types included).
template <typename T>
class FractionalAvgPoolGradOp : public OpKernel {
 public:
  explicit FractionalAvgPoolGradOp(OpKernelConstruction& c)
      : OpKernel(c), overlapping_(c.node().attr<bool>("overlapping")) {}
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const TensorShape in,
                          shape_fns::ShapeFromTensor(ctx.input(0), "orig_input_tensor_shape"));
    RILL_ASSIGN_OR_RETURN(const Regions g, GradRegions(ctx, in, 1, overlapping_));
    Tensor* dx;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, in, &dx));
    if (dx->NumElements() == 0) return absl::OkStatus();
    const Cover rows = CoverOf(g.row_seq, g.rows, overlapping_);
    const Cover cols = CoverOf(g.col_seq, g.cols, overlapping_);
    const T* dy = ctx.input(1).base<T>();
    T* o = dx->base<T>();
    const int64_t D = g.depth, R = g.out_rows(), C = g.out_cols();
    for (int64_t b = 0; b < g.batch; ++b)
      for (int64_t i = 0; i < g.rows; ++i)
        for (int64_t j = 0; j < g.cols; ++j)
          for (int64_t d = 0; d < D; ++d) {
            double sum = 0;
            for (int64_t r = rows.lo[i]; r <= rows.hi[i]; ++r)
              for (int64_t c = cols.lo[j]; c <= cols.hi[j]; ++c) {
                sum += static_cast<double>(dy[((b * R + r) * C + c) * D + d]) /
                       static_cast<double>(rows.size[r] * cols.size[c]);
              }
            o[((b * g.rows + i) * g.cols + j) * D + d] = CastValue<T>(sum);  // ints saturate
          }
    return absl::OkStatus();
  }

 private:
  bool overlapping_;
};

#define RILL_REG_FRACTIONAL(T, unused)                                                     \
  RILL_REGISTER_KERNEL("FractionalMaxPool", DEVICE_CPU, "T", DataTypeToEnum<T>::value,     \
                       FractionalPoolOp<T, true>);                                         \
  RILL_REGISTER_KERNEL("FractionalAvgPool", DEVICE_CPU, "T", DataTypeToEnum<T>::value,     \
                       FractionalPoolOp<T, false>);                                        \
  RILL_REGISTER_KERNEL("FractionalMaxPoolGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       FractionalMaxPoolGradOp<T>);                                        \
  RILL_REGISTER_KERNEL("FractionalAvgPoolGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       FractionalAvgPoolGradOp<T>);
RILL_FOR_SIGNED_TYPES(RILL_REG_FRACTIONAL, 0)

}  // namespace
}  // namespace rill::cpu
