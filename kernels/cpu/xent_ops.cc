// CPU kernels of the fused losses: softmax cross entropy (dense and sparse labels), sigmoid
// cross entropy (through log-sum-exp, so any logits are safe), Keras's categorical
// cross entropy of probabilities, and Keras's accuracy metrics (_Accuracy).
#include <cmath>

#include "rill/core/crossentropy_row.h"
#include "rill/core/kernel_util.h"
#include "rill/kernels/cpu/cwise.h"

namespace rill::cpu {
namespace {

template <typename T>
using RowMatrix =
    Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

// labels: dense [batch, classes] distributions, or class ids [batch] (kSparse).
template <typename T, typename Label, bool kSparse>
class SoftmaxXentOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& f = ctx.input(0);
    const Tensor& l = ctx.input(1);
    Tensor *loss, *backprop;
    RILL_ASSIGN_OR_RETURN(XentGeometry geo, PrepareXent(ctx, kSparse, &loss, &backprop));
    const int64_t batch = geo.batch, classes = geo.classes;
    if constexpr (kSparse) RILL_RETURN_IF_ERROR(CheckSparseLabels(l, classes));
    if (classes == 0) {
      AsArray<T>(loss).setZero();
      return absl::OkStatus();
    }
    const T* x = f.base<T>();
    T* bp = backprop->base<T>();
    for (int64_t r = 0; r < batch; ++r) {
      ConstArrayMap<T> row(x + r * classes, classes);
      ArrayMap<T> out(bp + r * classes, classes);
      const T max = row.maxCoeff();
      out = (row - max).exp();
      const T sum = out.sum();
      const T lse = std::log(sum) + max;
      out /= sum;  // softmax
      if constexpr (kSparse) {
        const int64_t id = static_cast<int64_t>(l.base<Label>()[r]);
        loss->base<T>()[r] = lse - row[id];
        out[id] -= T(1);
      } else {
        ConstArrayMap<T> lab(l.base<T>() + r * classes, classes);
        loss->base<T>()[r] = (lab * (lse - row)).sum();
        // d loss / d x = softmax * sum(labels) - labels (softmax - labels for distributions)
        out = out * lab.sum() - lab;
      }
    }
    return absl::OkStatus();
  }
};

template <typename T>
class SigmoidXentOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& z = ctx.input(1);
    RILL_RETURN_IF_ERROR(CheckSameShapes(ctx));
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &out));
    auto a = AsArray<T>(x);
    AsArray<T>(out) = a.max(T(0)) - a * AsArray<T>(z) + (-a.abs()).exp().log1p();
    return absl::OkStatus();
  }
};

template <typename T>
class CategoricalCrossentropyOp : public OpKernel {
 public:
  explicit CategoricalCrossentropyOp(OpKernelConstruction& c)
      : OpKernel(c), eps_(c.node().attr<float>("epsilon")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor *loss, *backprop;
    RILL_ASSIGN_OR_RETURN(XentGeometry geo, PrepareXent(ctx, false, &loss, &backprop));
    const T* p = ctx.input(0).base<T>();
    const T* y = ctx.input(1).base<T>();
    for (int64_t r = 0; r < geo.batch; ++r) {
      CategoricalCrossentropyRow<T>(p + r * geo.classes, y + r * geo.classes, geo.classes,
                                    static_cast<T>(eps_), loss->base<T>() + r,
                                    backprop->base<T>() + r * geo.classes);
    }
    return absl::OkStatus();
  }

 private:
  float eps_;
};

#define RILL_REG_XENT(T, unused)                                                                   \
  RILL_REGISTER_KERNEL("SoftmaxCrossEntropyWithLogits", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       SoftmaxXentOp<T, T, false>);                                                \
  RILL_REGISTER_KERNEL("SigmoidCrossEntropyWithLogits", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       SigmoidXentOp<T>);                                                          \
  RILL_REGISTER_KERNEL("_CategoricalCrossentropy", DEVICE_CPU, "T", DataTypeToEnum<T>::value,      \
                       CategoricalCrossentropyOp<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_XENT, 0)

// Sparse: keyed on the float type; the label type is dispatched at run time.
template <typename T>
class SparseXentDispatch : public OpKernel {
 public:
  explicit SparseXentDispatch(OpKernelConstruction& c)
      : OpKernel(c), i32_(c), i64_(c), use32_(c.node().input_type(1) == DT_INT32) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    return use32_ ? i32_.Compute(ctx) : i64_.Compute(ctx);
  }

 private:
  SoftmaxXentOp<T, int32_t, true> i32_;
  SoftmaxXentOp<T, int64_t, true> i64_;
  bool use32_;
};
#define RILL_REG_SPARSE_XENT(T, unused)                                        \
  RILL_REGISTER_KERNEL("SparseSoftmaxCrossEntropyWithLogits", DEVICE_CPU, "T", \
                       DataTypeToEnum<T>::value, SparseXentDispatch<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_SPARSE_XENT, 0)

// The labels' type is dispatched at run time.
template <typename T>
class AccuracyOp : public OpKernel {
 public:
  explicit AccuracyOp(OpKernelConstruction& c) : OpKernel(c), kind_(AccuracyKindOf(c)) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(AccuracyGeometry g, PrepareAccuracy(ctx, kind_, &out));
    const Tensor& labels = ctx.input(1);  // float, double, int32 or int64 (the op's types)
    int64_t hits = 0;
    VisitDataType(labels.dtype(), [&](auto tag) {
      using L = typename decltype(tag)::type;
      const T* o = ctx.input(0).base<T>();
      const L* l = labels.base<L>();
      for (int64_t i = 0; i < g.examples; ++i) hits += AccuracyHit(kind_, o, l, i, g.classes);
    });
    out->base<float>()[0] = static_cast<float>(hits) / static_cast<float>(g.examples);
    return absl::OkStatus();
  }

 private:
  AccuracyKind kind_;
};
#define RILL_REG_ACCURACY(T, unused) \
  RILL_REGISTER_KERNEL("_Accuracy", DEVICE_CPU, "T", DataTypeToEnum<T>::value, AccuracyOp<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_ACCURACY, 0)

}  // namespace
}  // namespace rill::cpu
