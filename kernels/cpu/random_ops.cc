// RandomUniform, RandomStandardNormal, TruncatedNormal, RandomUniformInt, Multinomial,
// RandomShuffle and Dropout on the CPU. Element i of a run comes from Philox block (seed, stream
// offset + i): the stream offset lives in the Session (one per node), so runs continue the sequence
// and plans share it; the same seeds give the same numbers in every new Session.
#include <algorithm>
#include <cstring>
#include <vector>

#include "rill/core/kernel_util.h"
#include "rill/core/philox.h"
#include "rill/core/random_draw_row.h"
#include "rill/kernels/cpu/cwise.h"

namespace rill::cpu {
namespace {

enum class Dist { kUniform, kNormal, kTruncated };

template <typename T, Dist D>
class RandomOp : public RandomKernelBase {
 public:
  explicit RandomOp(OpKernelConstruction& c) : RandomKernelBase(c) {}

  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const RandomDraw draw, Prepare(ctx, &out));
    const uint64_t base = draw.base;  // a host kernel: never recorded
    T* o = out->base<T>();
    for (int64_t i = 0; i < out->NumElements(); ++i) o[i] = Sample(base + i);
    return absl::OkStatus();
  }

 private:
  T Uniform(const random::Block& b, int j) const {
    if constexpr (std::is_same_v<T, float>) {
      return random::ToFloat(b[j]);
    } else {
      return random::ToDouble(b[j], b[j + 1]);
    }
  }

  T Sample(uint64_t counter) const {
    random::Block b = random::Philox(key(), 0, counter);
    if constexpr (D == Dist::kUniform) return Uniform(b, 0);
    for (uint64_t attempt = 0;; ++attempt) {
      T z0, z1;
      random::BoxMuller(T(1) - Uniform(b, 0), Uniform(b, 2), &z0, &z1);
      if constexpr (D == Dist::kNormal) return z0;
      if (std::abs(z0) < T(2)) return z0;
      if (std::abs(z1) < T(2)) return z1;
      b = random::Philox(key(), attempt + 1, counter);  // redraw from a fresh block
    }
  }
};

// Dropout: element i keeps with probability 1 - rate, from word i % 4 of Philox block
// (key, base + i / 4).
template <typename T>
class DropoutOp : public RandomKernelBase {
 public:
  explicit DropoutOp(OpKernelConstruction& c)
      : RandomKernelBase(c), rate_(c.node().attr<float>("rate")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor *out, *mask;
    RILL_ASSIGN_OR_RETURN(const RandomDraw draw, PrepareDropout(ctx, rate_, &out, &mask));
    const uint64_t base = draw.base;  // a host kernel: never recorded
    const int64_t n = x.NumElements();
    const T scale = T(1) / (T(1) - static_cast<T>(rate_));
    const T* in = x.base<T>();
    T* o = out->base<T>();
    T* m = mask->base<T>();
    for (int64_t i = 0; i < n; i += 4) {
      const random::Block b = random::Philox(key(), 0, base + static_cast<uint64_t>(i / 4));
      for (int j = 0; j < 4 && i + j < n; ++j) {
        m[i + j] = random::ToFloat(b[j]) >= rate_ ? scale : T(0);
        o[i + j] = in[i + j] * m[i + j];
      }
    }
    return absl::OkStatus();
  }

 private:
  float rate_;
};

template <typename T>
class RandomUniformIntOp : public RandomKernelBase {
 public:
  explicit RandomUniformIntOp(OpKernelConstruction& c) : RandomKernelBase(c) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    T lo;
    uint64_t range;
    RILL_ASSIGN_OR_RETURN(const RandomDraw draw, PrepareUniformInt<T>(ctx, &out, &lo, &range));
    T* o = out->base<T>();
    for (int64_t i = 0; i < out->NumElements(); ++i) {
      o[i] = random::UniformInt<T>(random::Philox(key(), 0, draw.base + i), lo, range);
    }
    return absl::OkStatus();
  }
};

// Each row's running weights once (random_draw_row.h's sums, in its order), then each
// sample's class by binary search: the class the GPU's scan finds.
template <typename T>
class MultinomialOp : public RandomKernelBase {
 public:
  explicit MultinomialOp(OpKernelConstruction& c)
      : RandomKernelBase(c), int32_(c.node().attr<DataType>("output_dtype") == DT_INT32) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const MultinomialDraw m, PrepareMultinomial(ctx, &out));
    const int64_t batch = m.batch, classes = m.classes, samples = m.samples;
    std::vector<double> running(classes);
    for (int64_t b = 0; b < batch && samples > 0; ++b) {
      const T* row = ctx.input(0).base<T>() + b * classes;
      const double max = random::MaxFiniteLogit(row, classes);
      double sum = 0;
      for (int64_t j = 0; j < classes; ++j) running[j] = sum += random::ClassWeight(row[j], max);
      for (int64_t s = 0; s < samples; ++s) {
        const int64_t i = b * samples + s;
        const random::Block blk = random::Philox(key(), 0, m.draw.base + i);
        const double target = random::ToDouble(blk[0], blk[1]) * sum;
        const int64_t c =
            std::upper_bound(running.begin(), running.end(), target) - running.begin();
        if (int32_) {
          out->base<int32_t>()[i] = static_cast<int32_t>(c);
        } else {
          out->base<int64_t>()[i] = c;
        }
      }
    }
    return absl::OkStatus();
  }

 private:
  bool int32_;
};

// Fisher-Yates over the first dim: swap i draws j uniform in [0, i] from block base + i;
// the rows then move in that order, whatever the dtype (bytes).
class RandomShuffleOp : public RandomKernelBase {
 public:
  explicit RandomShuffleOp(OpKernelConstruction& c) : RandomKernelBase(c) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const int64_t n = x.dims() == 0 ? 1 : x.dim_size(0);
    if (n <= 1) {
      ctx.set_output(0, x);
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(const RandomDraw draw, Draw(ctx, n));
    std::vector<int64_t> order(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) order[i] = i;
    for (int64_t i = n - 1; i > 0; --i) {
      const auto j = random::UniformInt<int64_t>(random::Philox(key(), 0, draw.base + i), 0,
                                                 static_cast<uint64_t>(i + 1));
      std::swap(order[i], order[j]);
    }
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &out));
    const size_t row = x.TotalBytes() / static_cast<size_t>(n);
    const char* src = static_cast<const char*>(x.data());
    char* dst = static_cast<char*>(out->data());
    for (int64_t i = 0; i < n && row > 0; ++i)
      std::memcpy(dst + i * row, src + order[i] * row, row);
    return absl::OkStatus();
  }
};

#define RILL_REG_RANDOM(T, unused)                                                            \
  RILL_REGISTER_KERNEL("RandomUniform", DEVICE_CPU, "dtype", DataTypeToEnum<T>::value,        \
                       RandomOp<T, Dist::kUniform>);                                          \
  RILL_REGISTER_KERNEL("RandomStandardNormal", DEVICE_CPU, "dtype", DataTypeToEnum<T>::value, \
                       RandomOp<T, Dist::kNormal>);                                           \
  RILL_REGISTER_KERNEL("TruncatedNormal", DEVICE_CPU, "dtype", DataTypeToEnum<T>::value,      \
                       RandomOp<T, Dist::kTruncated>);                                        \
  RILL_REGISTER_KERNEL("Dropout", DEVICE_CPU, "T", DataTypeToEnum<T>::value, DropoutOp<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_RANDOM, 0)
RILL_REGISTER_KERNEL("Multinomial", DEVICE_CPU, "T", DT_FLOAT, MultinomialOp<float>);
RILL_REGISTER_KERNEL("RandomShuffle", DEVICE_CPU, "", DT_INVALID, RandomShuffleOp);
RILL_REGISTER_KERNEL("Multinomial", DEVICE_CPU, "T", DT_DOUBLE, MultinomialOp<double>);
RILL_REGISTER_KERNEL("RandomUniformInt", DEVICE_CPU, "Tout", DT_INT32, RandomUniformIntOp<int32_t>);
RILL_REGISTER_KERNEL("RandomUniformInt", DEVICE_CPU, "Tout", DT_INT64, RandomUniformIntOp<int64_t>);

}  // namespace
}  // namespace rill::cpu
