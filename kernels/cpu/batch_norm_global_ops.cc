// CPU kernels of BatchNormWithGlobalNormalization and its gradient: per channel c of the
// last dim, with r = 1 / sqrt(v + eps) and g = gamma (or 1 without
// scale_after_normalization), y = (t - m) r g + beta; backward, with sums over the other
// dims, dx = b r g, dm = -sum(b) r g, dv = -sum(b (t - m)) g r^3 / 2, db = sum(b), and
// dg = sum(b (t - m)) r (0 without scale_after_normalization). Sums in float64.
#include <cmath>
#include <vector>

#include "rill/core/batch_norm_global.h"

namespace rill::cpu {
namespace {

// The attrs both kernels read.
class GlobalNormKernel : public OpKernel {
 public:
  explicit GlobalNormKernel(OpKernelConstruction& c)
      : OpKernel(c),
        eps_(c.node().attr<float>("variance_epsilon")),
        scale_(c.node().attr<bool>("scale_after_normalization")) {}

 protected:
  // Per channel: r = 1 / sqrt(v + eps), and g = gamma or 1 (once per run, not per element).
  template <typename T>
  void Factors(const T* v, const T* gamma, int64_t channels, std::vector<double>* r,
               std::vector<double>* g) const {
    r->resize(channels);
    g->resize(channels);
    for (int64_t c = 0; c < channels; ++c) {
      (*r)[c] = 1 / std::sqrt(double(v[c]) + eps_);
      (*g)[c] = scale_ ? double(gamma[c]) : 1.0;
    }
  }

  const float eps_;
  const bool scale_;
};

template <typename T>
class GlobalNormOp : public GlobalNormKernel {
 public:
  using GlobalNormKernel::GlobalNormKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const int64_t channels, CheckGlobalNorm(ctx, eps_));
    const Tensor& t = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, t.shape(), &out));
    const T *x = t.base<T>(), *m = ctx.input(1).base<T>(), *beta = ctx.input(3).base<T>();
    std::vector<double> r, g;
    Factors(ctx.input(2).base<T>(), ctx.input(4).base<T>(), channels, &r, &g);
    T* y = out->base<T>();
    for (int64_t i = 0; i < t.NumElements(); ++i) {
      const int64_t c = i % channels;
      y[i] = T((double(x[i]) - double(m[c])) * r[c] * g[c] + double(beta[c]));
    }
    return absl::OkStatus();
  }
};

template <typename T>
class GlobalNormGradOp : public GlobalNormKernel {
 public:
  using GlobalNormKernel::GlobalNormKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const int64_t channels, CheckGlobalNorm(ctx, eps_));
    const Tensor& t = ctx.input(0);
    const T *x = t.base<T>(), *m = ctx.input(1).base<T>(), *b = ctx.input(4).base<T>();
    std::vector<double> r, g;
    Factors(ctx.input(2).base<T>(), ctx.input(3).base<T>(), channels, &r, &g);
    std::vector<double> sum_b(channels, 0.0), sum_bx(channels, 0.0);
    for (int64_t i = 0; i < t.NumElements(); ++i) {
      const int64_t c = i % channels;
      sum_b[c] += double(b[i]);
      sum_bx[c] += double(b[i]) * (double(x[i]) - double(m[c]));
    }
    Tensor* out[5];
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, t.shape(), &out[0]));
    for (int o = 1; o < 5; ++o) {
      RILL_RETURN_IF_ERROR(ctx.allocate_output(o, TensorShape({channels}), &out[o]));
    }
    T* dx = out[0]->base<T>();
    for (int64_t i = 0; i < t.NumElements(); ++i) {
      const int64_t c = i % channels;
      dx[i] = T(double(b[i]) * r[c] * g[c]);
    }
    for (int64_t c = 0; c < channels; ++c) {
      out[1]->base<T>()[c] = T(-sum_b[c] * r[c] * g[c]);
      out[2]->base<T>()[c] = T(-0.5 * sum_bx[c] * g[c] * r[c] * r[c] * r[c]);
      out[3]->base<T>()[c] = T(sum_b[c]);
      out[4]->base<T>()[c] = T(scale_ ? sum_bx[c] * r[c] : 0.0);
    }
    return absl::OkStatus();
  }
};

#define RILL_REG_GLOBAL_NORM(T, unused)                                         \
  RILL_REGISTER_KERNEL("BatchNormWithGlobalNormalization", DEVICE_CPU, "T",     \
                       DataTypeToEnum<T>::value, GlobalNormOp<T>);              \
  RILL_REGISTER_KERNEL("BatchNormWithGlobalNormalizationGrad", DEVICE_CPU, "T", \
                       DataTypeToEnum<T>::value, GlobalNormGradOp<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_GLOBAL_NORM, _)
#undef RILL_REG_GLOBAL_NORM

}  // namespace
}  // namespace rill::cpu
