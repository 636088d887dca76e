// Math ops: elementwise with NumPy broadcasting, comparisons, AddN, MatMul, reductions.
#pragma once

#include <vector>

#include "rill/ops/op_builder.h"
// TensorFlow's math_ops.h declares Range, Select, SelectV2, the segment reductions, Cumsum
// and Cumprod; its linalg_ops.h Einsum.
#include "rill/ops/einsum_ops.h"
#include "rill/ops/gather_ops.h"
#include "rill/ops/scan_ops.h"
#include "rill/ops/segment_ops.h"
#include "rill/ops/select_ops.h"

namespace rill::ops {

#define RILL_DECLARE_UNARY_OP(Name)    \
  class Name : public OpWrapper {      \
   public:                             \
    Name(const Scope& scope, Input x); \
  };
#define RILL_DECLARE_BINARY_OP(Name)            \
  class Name : public OpWrapper {               \
   public:                                      \
    Name(const Scope& scope, Input x, Input y); \
  };

RILL_DECLARE_BINARY_OP(Add)
RILL_DECLARE_BINARY_OP(AddV2)  // Add as TensorFlow 2 writes x + y (the same values)
RILL_DECLARE_BINARY_OP(Sub)
RILL_DECLARE_BINARY_OP(Mul)
RILL_DECLARE_BINARY_OP(Div)
RILL_DECLARE_BINARY_OP(RealDiv)            // x / y of floats
RILL_DECLARE_BINARY_OP(SquaredDifference)  // (x - y)^2, broadcasting
// Polygamma(a, x): the a-th derivative of digamma at x (a a non-negative integer value,
// else NaN), broadcasting.
RILL_DECLARE_BINARY_OP(Polygamma)
RILL_DECLARE_BINARY_OP(Pow)
RILL_DECLARE_BINARY_OP(FloorDiv)     // floor(x / y); integers: toward minus infinity
RILL_DECLARE_BINARY_OP(FloorMod)     // x - FloorDiv(x, y) y: the remainder with y's sign
RILL_DECLARE_BINARY_OP(TruncateDiv)  // x / y rounded toward zero (integers: C's /)
RILL_DECLARE_BINARY_OP(TruncateMod)  // x - TruncateDiv(x, y) y: C's % and fmod, x's sign
RILL_DECLARE_BINARY_OP(Mod)          // the same as TruncateMod (TensorFlow's older name)
RILL_DECLARE_BINARY_OP(Atan2)        // atan2(y, x) of floats, TensorFlow's (y, x) order
RILL_DECLARE_BINARY_OP(DivNoNan)     // x / y of floats, 0 where y is 0
RILL_DECLARE_BINARY_OP(MulNoNan)     // x * y of floats, 0 where y is 0 (even for x inf or NaN)
RILL_DECLARE_BINARY_OP(Xlogy)        // x log(y) of floats, 0 where x is 0
RILL_DECLARE_BINARY_OP(Xlog1py)      // x log1p(y) of floats, 0 where x is 0
RILL_DECLARE_BINARY_OP(Xdivy)        // x / y of floats, 0 where x is 0
RILL_DECLARE_BINARY_OP(Maximum)
RILL_DECLARE_BINARY_OP(Minimum)
RILL_DECLARE_BINARY_OP(Equal)
RILL_DECLARE_BINARY_OP(Less)
RILL_DECLARE_BINARY_OP(Greater)
RILL_DECLARE_BINARY_OP(NotEqual)
RILL_DECLARE_BINARY_OP(LessEqual)
RILL_DECLARE_BINARY_OP(GreaterEqual)
RILL_DECLARE_BINARY_OP(LogicalAnd)  // bool operands, with broadcasting
RILL_DECLARE_BINARY_OP(LogicalOr)
RILL_DECLARE_UNARY_OP(LogicalNot)

RILL_DECLARE_UNARY_OP(Neg)
RILL_DECLARE_UNARY_OP(Abs)
RILL_DECLARE_UNARY_OP(Square)
RILL_DECLARE_UNARY_OP(Sqrt)
RILL_DECLARE_UNARY_OP(Exp)
RILL_DECLARE_UNARY_OP(Log)
RILL_DECLARE_UNARY_OP(Sign)        // -1, 0 or 1
RILL_DECLARE_UNARY_OP(Rsqrt)       // 1 / sqrt(x)
RILL_DECLARE_UNARY_OP(Reciprocal)  // 1 / x
RILL_DECLARE_UNARY_OP(Floor)
RILL_DECLARE_UNARY_OP(Ceil)
RILL_DECLARE_UNARY_OP(Round)  // to nearest, ties to even (2.5 -> 2), as TensorFlow's
RILL_DECLARE_UNARY_OP(Sin)
RILL_DECLARE_UNARY_OP(Cos)
RILL_DECLARE_UNARY_OP(Erf)
RILL_DECLARE_UNARY_OP(Softplus)  // log(1 + e^x)
RILL_DECLARE_UNARY_OP(Softsign)  // x / (1 + |x|)
RILL_DECLARE_UNARY_OP(Lgamma)    // log |Gamma(x)|
RILL_DECLARE_UNARY_OP(Digamma)   // d/dx lgamma(x)
RILL_DECLARE_UNARY_OP(Expm1)     // e^x - 1, accurate near 0
RILL_DECLARE_UNARY_OP(Log1p)     // log(1 + x), accurate near 0
RILL_DECLARE_UNARY_OP(Sinh)
RILL_DECLARE_UNARY_OP(Cosh)
RILL_DECLARE_UNARY_OP(Tan)
RILL_DECLARE_UNARY_OP(Asin)
RILL_DECLARE_UNARY_OP(Acos)
RILL_DECLARE_UNARY_OP(Atan)
RILL_DECLARE_UNARY_OP(Asinh)
RILL_DECLARE_UNARY_OP(Acosh)
RILL_DECLARE_UNARY_OP(Atanh)
RILL_DECLARE_UNARY_OP(Erfc)  // 1 - erf(x), accurate where erf(x) rounds to 1
RILL_DECLARE_UNARY_OP(Rint)  // the nearest integer, ties to even: Round of floats
// Bool results: which elements are NaN, +-inf, or neither (floats).
RILL_DECLARE_UNARY_OP(IsNan)
RILL_DECLARE_UNARY_OP(IsInf)
RILL_DECLARE_UNARY_OP(IsFinite)

// TensorFlow's aliases.
using Subtract = Sub;
using Multiply = Mul;
using Negate = Neg;

// min(max(t, clip_value_min), clip_value_max) as TensorFlow computes it (the max with the
// lower bound last); each bound a scalar or of t's shape.
class ClipByValue : public OpWrapper {
 public:
  ClipByValue(const Scope& scope, Input t, Input clip_value_min, Input clip_value_max);
};

// The cross product of each pair of 3-vectors along a's and b's last dim (tf.linalg.cross);
// a and b of one shape [..., 3]. Integers wrap.
class Cross : public OpWrapper {
 public:
  Cross(const Scope& scope, Input a, Input b);
};

// tf.math.bincount's ops: Bincount(arr, size, weights) counts arr's values (any shape) into
// [size] bins, each adding its weight (weights of arr's shape, or empty for 1);
// DenseBincount(input, size, weights, DenseBincount::BinaryOutput(b)) does the same per row
// of a 2-D input ([batch, size]) and with BinaryOutput sets a bin to 1. Values at or above
// size are ignored and negative ones are InvalidArgument (TensorFlow's CPU kernels). The
// output has weights' dtype. Not differentiable.
class Bincount : public OpWrapper {
 public:
  Bincount(const Scope& scope, Input arr, Input size, Input weights);
};
struct DenseBincountAttrs {
  DenseBincountAttrs BinaryOutput(bool x) const {
    DenseBincountAttrs r = *this;
    r.binary_output_ = x;
    return r;
  }
  bool binary_output_ = false;
};
class DenseBincount : public OpWrapper {
 public:
  using Attrs = DenseBincountAttrs;
  DenseBincount(const Scope& scope, Input input, Input size, Input weights,
                const Attrs& attrs = Attrs());
  static Attrs BinaryOutput(bool x) { return Attrs().BinaryOutput(x); }
};

class AddN : public OpWrapper {
 public:
  AddN(const Scope& scope, InputList inputs);
};

class MatMul : public OpWrapper {
 public:
  struct Attrs {
    Attrs TransposeA(bool x) {
      Attrs r = *this;
      r.transpose_a_ = x;
      return r;
    }
    Attrs TransposeB(bool x) {
      Attrs r = *this;
      r.transpose_b_ = x;
      return r;
    }
    bool transpose_a_ = false;
    bool transpose_b_ = false;
  };
  MatMul(const Scope& scope, Input a, Input b) : MatMul(scope, a, b, Attrs()) {}
  MatMul(const Scope& scope, Input a, Input b, const Attrs& attrs);
  static Attrs TransposeA(bool x) { return Attrs().TransposeA(x); }
  static Attrs TransposeB(bool x) { return Attrs().TransposeB(x); }
};

// Matrix products over batch dims that broadcast: x [..., m, k] times y [..., k, n];
// adj_x / adj_y transpose the last two dims of an operand (adjoint: real types only).
class BatchMatMulV2 : public OpWrapper {
 public:
  struct Attrs {
    Attrs AdjX(bool v) {
      Attrs r = *this;
      r.adj_x_ = v;
      return r;
    }
    Attrs AdjY(bool v) {
      Attrs r = *this;
      r.adj_y_ = v;
      return r;
    }
    bool adj_x_ = false;
    bool adj_y_ = false;
  };
  BatchMatMulV2(const Scope& scope, Input x, Input y) : BatchMatMulV2(scope, x, y, Attrs()) {}
  BatchMatMulV2(const Scope& scope, Input x, Input y, const Attrs& attrs);
  static Attrs AdjX(bool v) { return Attrs().AdjX(v); }
  static Attrs AdjY(bool v) { return Attrs().AdjY(v); }
};
// TensorFlow's older BatchMatMul (batch dims equal) builds a BatchMatMulV2 node: every
// product V1 takes, V2 computes the same; V2 also broadcasts where V1 would refuse.
using BatchMatMul = BatchMatMulV2;

struct ReductionAttrs {
  ReductionAttrs KeepDims(bool x) {
    ReductionAttrs r = *this;
    r.keep_dims_ = x;
    return r;
  }
  bool keep_dims_ = false;
};

#define RILL_DECLARE_REDUCTION_OP(Name)                                              \
  class Name : public OpWrapper {                                                    \
   public:                                                                           \
    using Attrs = ReductionAttrs;                                                    \
    Name(const Scope& scope, Input input, Input axis, const Attrs& attrs = Attrs()); \
    static Attrs KeepDims(bool x) { return Attrs().KeepDims(x); }                    \
  };
RILL_DECLARE_REDUCTION_OP(Sum)
RILL_DECLARE_REDUCTION_OP(Mean)
RILL_DECLARE_REDUCTION_OP(Max)
RILL_DECLARE_REDUCTION_OP(Min)
RILL_DECLARE_REDUCTION_OP(Prod)
// tf.math.reduce_euclidean_norm: sqrt(sum(x * x)) over the axes; float and double only
// (TensorFlow's also takes integers, squaring and summing them in their own dtype).
RILL_DECLARE_REDUCTION_OP(EuclideanNorm)
// The logical AND / OR of a bool input over the axes: an empty reduction is true for All,
// false for Any.
RILL_DECLARE_REDUCTION_OP(All)
RILL_DECLARE_REDUCTION_OP(Any)
using ReduceSum = Sum;
using ReduceMean = Mean;
using ReduceMax = Max;
using ReduceMin = Min;
using ReduceProd = Prod;
using ReduceAll = All;
using ReduceAny = Any;

// The gradient of a Mean that reduces all of its input x to one element, from that
// element's gradient (one element, any rank) and x's shape: gradients / size(x) in every
// element of a tensor of that shape (op _MeanAllGrad, one kernel).
class MeanAllGrad : public OpWrapper {
 public:
  MeanAllGrad(const Scope& scope, Input gradients, Input shape);
};

struct ArgAttrs {
  ArgAttrs OutputType(DataType x) {
    ArgAttrs r = *this;
    r.output_type_ = x;
    return r;
  }
  DataType output_type_ = DT_INT64;
};

// The index of the largest (ArgMax) or smallest (ArgMin) value along `dimension` (a
// scalar); ties give the first index.
#define RILL_DECLARE_ARG_OP(Name)                                               \
  class Name : public OpWrapper {                                               \
   public:                                                                      \
    using Attrs = ArgAttrs;                                                     \
    Name(const Scope& scope, Input input, Input dimension)                      \
        : Name(scope, input, dimension, Attrs()) {}                             \
    Name(const Scope& scope, Input input, Input dimension, const Attrs& attrs); \
    static Attrs OutputType(DataType x) { return Attrs().OutputType(x); }       \
  };
RILL_DECLARE_ARG_OP(ArgMax)
RILL_DECLARE_ARG_OP(ArgMin)
#undef RILL_DECLARE_ARG_OP

// Bucketize (feature columns' bucketized_column): each value's bucket, the number of
// boundaries at or below it (int32, the input's shape). boundaries sorted, none NaN. Not
// differentiable.
class Bucketize : public OpWrapper {
 public:
  Bucketize(const Scope& scope, Input input, const std::vector<float>& boundaries);
};

// tf.histogram_fixed_width: counts of values in nbins equal bins over value_range [lo, hi)
// (values below lo in the first bin, at or above hi in the last; NaN nowhere), int32 or
// Dtype(DT_INT64). Not differentiable.
struct HistogramFixedWidthAttrs {
  HistogramFixedWidthAttrs Dtype(DataType x) const {
    HistogramFixedWidthAttrs r = *this;
    r.dtype_ = x;
    return r;
  }
  DataType dtype_ = DT_INT32;
};
class HistogramFixedWidth : public OpWrapper {
 public:
  using Attrs = HistogramFixedWidthAttrs;
  HistogramFixedWidth(const Scope& scope, Input values, Input value_range, Input nbins,
                      const Attrs& attrs = Attrs());
  static Attrs Dtype(DataType x) { return Attrs().Dtype(x); }
};

}  // namespace rill::ops
