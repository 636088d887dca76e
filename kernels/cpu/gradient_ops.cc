// CPU kernels of the gradient helpers: StopGradient, PreventGradient, BroadcastGradientArgs
// (and BroadcastArgs, the broadcast shape itself), ReducedShape, InvertPermutation, Size,
// and the fused activation gradients.
#include <cmath>

#include "rill/core/kernel_util.h"
#include "rill/core/shape_util.h"
#include "rill/kernels/cpu/cwise.h"

namespace rill::cpu {
namespace {

using shape_fns::IntValues;

absl::Status WriteInts(OpKernelContext& ctx, int i, absl::Span<const int64_t> v) {
  Tensor* out;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(i, TensorShape({static_cast<int64_t>(v.size())}), &out));
  VisitDataType(out->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      for (size_t k = 0; k < v.size(); ++k) out->base<T>()[k] = static_cast<T>(v[k]);
    }
  });
  return absl::OkStatus();
}

class StopGradientOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    ctx.set_output(0, ctx.input(0));
    return absl::OkStatus();
  }
};

// s0 and s1 (shapes as vectors) left-padded with 1s to one rank in *a and *b, each pair of
// dims checked to broadcast.
absl::Status AlignShapes(OpKernelContext& ctx, shape_util::Dims* a, shape_util::Dims* b) {
  RILL_ASSIGN_OR_RETURN(auto s0, IntVectorInput(ctx.input(0), "s0"));
  RILL_ASSIGN_OR_RETURN(auto s1, IntVectorInput(ctx.input(1), "s1"));
  const size_t rank = std::max(s0.size(), s1.size());
  a->assign(rank - s0.size(), 1);
  a->insert(a->end(), s0.begin(), s0.end());
  b->assign(rank - s1.size(), 1);
  b->insert(b->end(), s1.begin(), s1.end());
  for (size_t d = 0; d < rank; ++d) {
    if ((*a)[d] < 0 || (*b)[d] < 0) {
      return errors::InvalidArgument("shapes must not have negative dims");
    }
    if ((*a)[d] != (*b)[d] && (*a)[d] != 1 && (*b)[d] != 1) {
      return errors::InvalidArgument("incompatible shapes ", shape_util::Str(s0), " and ",
                                     shape_util::Str(s1), " at dim ", d);
    }
  }
  return absl::OkStatus();
}

class BroadcastGradientArgsOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    shape_util::Dims a, b, r0, r1;
    RILL_RETURN_IF_ERROR(AlignShapes(ctx, &a, &b));
    const size_t lead0 = a.size() - ctx.input(0).NumElements();
    const size_t lead1 = b.size() - ctx.input(1).NumElements();
    for (size_t d = 0; d < a.size(); ++d) {
      const bool a_lead = d < lead0, b_lead = d < lead1;
      if (a_lead || (a[d] == 1 && b[d] != 1)) r0.push_back(static_cast<int64_t>(d));
      if (b_lead || (b[d] == 1 && a[d] != 1)) r1.push_back(static_cast<int64_t>(d));
      if (a[d] == 1 && b[d] == 1 && !a_lead && !b_lead) {
        r0.push_back(static_cast<int64_t>(d));  // size-1 on both: summing is harmless
        r1.push_back(static_cast<int64_t>(d));
      }
    }
    RILL_RETURN_IF_ERROR(WriteInts(ctx, 0, r0));
    return WriteInts(ctx, 1, r1);
  }
};

// BroadcastArgs: the NumPy broadcast of two shapes given as vectors.
class BroadcastArgsOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    shape_util::Dims a, b;
    RILL_RETURN_IF_ERROR(AlignShapes(ctx, &a, &b));
    for (size_t d = 0; d < a.size(); ++d) a[d] = a[d] == 1 ? b[d] : a[d];
    return WriteInts(ctx, 0, a);  // each dim one of the inputs': it fits their dtype
  }
};

class ReducedShapeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(auto shape, IntVectorInput(ctx.input(0), "input_shape"));
    if (ctx.input(1).dims() > 1) return errors::InvalidArgument("axes must be a scalar or vector");
    RILL_ASSIGN_OR_RETURN(auto axes, IntValues(ctx.input(1), "axes"));
    const int64_t rank = static_cast<int64_t>(shape.size());
    for (int64_t a : axes) {
      if (a < -rank || a >= rank) {
        return errors::InvalidArgument("axis ", a, " out of range for rank ", rank);
      }
      shape[a < 0 ? a + rank : a] = 1;
    }
    return WriteInts(ctx, 0, shape);
  }
};

class InvertPermutationOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(auto p, IntVectorInput(ctx.input(0), "x"));
    const int64_t n = static_cast<int64_t>(p.size());
    shape_util::Dims inv(n, -1);
    for (int64_t i = 0; i < n; ++i) {
      if (p[i] < 0 || p[i] >= n || inv[p[i]] != -1) {
        return errors::InvalidArgument(shape_util::Str(p), " is not a permutation of 0..", n - 1);
      }
      inv[p[i]] = i;
    }
    return WriteInts(ctx, 0, inv);
  }
};

class SizeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const int64_t n = ctx.input(0).NumElements();
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({}), &out));
    if (out->dtype() == DT_INT32) {
      if (n > std::numeric_limits<int32_t>::max()) {
        return errors::InvalidArgument("size ", n, " does not fit out_type int32");
      }
      out->base<int32_t>()[0] = static_cast<int32_t>(n);
    } else {
      out->base<int64_t>()[0] = n;
    }
    return absl::OkStatus();
  }
};

// out = f(a, b) for two inputs of one shape.
template <typename T, typename F>
class SameShapeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_RETURN_IF_ERROR(CheckSameShapes(ctx));
    const Tensor& a = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.forward_or_allocate_output(0, 0, a.shape(), &out));
    AsArray<T>(out) = F{}(AsArray<T>(a), AsArray<T>(ctx.input(1)));
    return absl::OkStatus();
  }
};

struct ReluGradF {  // (gradients, features)
  template <typename A, typename B>
  auto operator()(const A& g, const B& x) const {
    using T = typename A::Scalar;
    return (x > T(0)).select(g, T(0));
  }
};
struct SigmoidGradF {  // (y, dy)
  template <typename A, typename B>
  auto operator()(const A& y, const B& dy) const {
    using T = typename A::Scalar;
    return dy * y * (T(1) - y);
  }
};
struct TanhGradF {  // (y, dy)
  template <typename A, typename B>
  auto operator()(const A& y, const B& dy) const {
    using T = typename A::Scalar;
    return dy * (T(1) - y * y);
  }
};

RILL_REGISTER_KERNEL("StopGradient", DEVICE_CPU, "", DT_INVALID, StopGradientOp);
RILL_REGISTER_KERNEL("PreventGradient", DEVICE_CPU, "", DT_INVALID, StopGradientOp);
RILL_REGISTER_KERNEL("BroadcastGradientArgs", DEVICE_CPU, "", DT_INVALID, BroadcastGradientArgsOp);
RILL_REGISTER_KERNEL("ReducedShape", DEVICE_CPU, "", DT_INVALID, ReducedShapeOp);
RILL_REGISTER_KERNEL("InvertPermutation", DEVICE_CPU, "", DT_INVALID, InvertPermutationOp);
RILL_REGISTER_KERNEL("Size", DEVICE_CPU, "", DT_INVALID, SizeOp);
// On a GPU these compute on the host from shapes (TensorFlow's HostMemory kernels): Size
// reads only its input's shape, the others read host inputs; their outputs stay on the
// host, where their consumers (Reshape's shape, Sum's axes) read them.
RILL_REGISTER_KERNEL_HOST_OUTPUTS("Size", DEVICE_GPU, "", DT_INVALID, {}, SizeOp);
RILL_REGISTER_KERNEL_HOST_OUTPUTS("BroadcastGradientArgs", DEVICE_GPU, "", DT_INVALID,
                                  (std::vector<int>{0, 1}), BroadcastGradientArgsOp);
RILL_REGISTER_KERNEL("BroadcastArgs", DEVICE_CPU, "", DT_INVALID, BroadcastArgsOp);
RILL_REGISTER_KERNEL_HOST_OUTPUTS("BroadcastArgs", DEVICE_GPU, "", DT_INVALID,
                                  (std::vector<int>{0, 1}), BroadcastArgsOp);
RILL_REGISTER_KERNEL_HOST_OUTPUTS("ReducedShape", DEVICE_GPU, "", DT_INVALID,
                                  (std::vector<int>{0, 1}), ReducedShapeOp);
RILL_REGISTER_KERNEL_HOST_OUTPUTS("InvertPermutation", DEVICE_GPU, "", DT_INVALID, {0},
                                  InvertPermutationOp);
#define RILL_REG_ACT_GRAD(T, NAME, F) \
  RILL_REGISTER_KERNEL(NAME, DEVICE_CPU, "T", DataTypeToEnum<T>::value, SameShapeOp<T, F>);
RILL_FOR_SIGNED_TYPES(RILL_REG_ACT_GRAD, "ReluGrad", ReluGradF)
RILL_FOR_FLOAT_TYPES(RILL_REG_ACT_GRAD, "SigmoidGrad", SigmoidGradF)
RILL_FOR_FLOAT_TYPES(RILL_REG_ACT_GRAD, "TanhGrad", TanhGradF)

}  // namespace
}  // namespace rill::cpu
