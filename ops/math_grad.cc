// Gradients of the math family: elementwise ops (broadcasting undone), AddN, MatMul and
// the reductions.
#include "rill/core/shape_inference.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradient_ops.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"

namespace rill::ops {
namespace {

using grad::Scalar;
using GradOut = std::vector<Output>;
using grad::In;
using grad::Out;
using grad::T;

absl::Status AddGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  grad::ReduceBinary(s, In(op, 0), In(op, 1), g[0], g[0], out);
  return s.status();
}
absl::Status SubGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  grad::ReduceBinary(s, In(op, 0), In(op, 1), g[0], Neg(s, g[0]), out);
  return s.status();
}
absl::Status MulGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  grad::ReduceBinary(s, In(op, 0), In(op, 1), Mul(s, g[0], In(op, 1)), Mul(s, g[0], In(op, 0)),
                     out);
  return s.status();
}
absl::Status DivGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output x = In(op, 0), y = In(op, 1);
  // d(x/y)/dy = -x/y^2 = -(x/y)/y
  grad::ReduceBinary(s, x, y, Div(s, g[0], y), Neg(s, Mul(s, g[0], Div(s, Out(op), y))), out);
  return s.status();
}
// d (x - y)^2 = 2 (x - y) for x, its negation for y (TensorFlow's SquaredDifferenceGrad).
absl::Status SquaredDifferenceGrad(const Scope& s, const Operation& op, const GradOut& g,
                                   GradOut* out) {
  Output x = In(op, 0), y = In(op, 1);
  Output gx = Mul(s, g[0], Mul(s, Scalar(s, 2, T(op)), Sub(s, x, y)));
  grad::ReduceBinary(s, x, y, gx, Neg(s, gx), out);
  return s.status();
}
absl::Status PowGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output x = In(op, 0), y = In(op, 1), z = Out(op);
  const DataType dt = T(op);
  Output gx = Mul(s, g[0], Mul(s, y, Pow(s, x, Sub(s, y, Scalar(s, 1, dt)))));
  // log(x) where x > 0, else 0 (as TensorFlow): the tiny floor keeps log finite.
  Output positive = Cast(s, Greater(s, x, Scalar(s, 0, dt)), dt);
  Output safe_log = Mul(s, positive, Log(s, Maximum(s, x, Scalar(s, 1e-30, dt))));
  Output gy = Mul(s, g[0], Mul(s, z, safe_log));
  grad::ReduceBinary(s, x, y, gx, gy, out);
  return s.status();
}
// FloorMod(x, y) = x - floor(x / y) y: dx = 1 and dy = -floor(x / y) where it is smooth
// (TensorFlow's FloorModGrad).
absl::Status FloorModGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output x = In(op, 0), y = In(op, 1);
  grad::ReduceBinary(s, x, y, g[0], Neg(s, Mul(s, g[0], FloorDiv(s, x, y))), out);
  return s.status();
}
// TruncateMod(x, y) = x - trunc(x / y) y: dx = 1 and dy = -trunc(x / y) where it is smooth
// (TensorFlow defines none; this is FloorMod's with the other rounding).
absl::Status TruncateModGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output x = In(op, 0), y = In(op, 1);
  grad::ReduceBinary(s, x, y, g[0], Neg(s, Mul(s, g[0], TruncateDiv(s, x, y))), out);
  return s.status();
}
// atan2(y, x): d/dy = x / (x^2 + y^2), d/dx = -y / (x^2 + y^2).
absl::Status Atan2Grad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output y = In(op, 0), x = In(op, 1);
  Output scale = Div(s, g[0], Add(s, Square(s, x), Square(s, y)));
  grad::ReduceBinary(s, y, x, Mul(s, scale, x), Neg(s, Mul(s, scale, y)), out);
  return s.status();
}
// The "no NaN" ops' gradients, TensorFlow's: where the op gives 0 whatever the other
// operand, so does its gradient.
absl::Status DivNoNanGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output x = In(op, 0), y = In(op, 1);
  grad::ReduceBinary(s, x, y, DivNoNan(s, g[0], y),
                     Mul(s, g[0], DivNoNan(s, DivNoNan(s, Neg(s, x), y), y)), out);
  return s.status();
}
absl::Status MulNoNanGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output x = In(op, 0), y = In(op, 1);
  grad::ReduceBinary(s, x, y, MulNoNan(s, g[0], y), MulNoNan(s, x, g[0]), out);
  return s.status();
}
// x log(y), x log1p(y), x / y with 0 where x is 0: the x side through a 0/1 mask of x.
absl::Status XGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output x = In(op, 0), y = In(op, 1);
  Output nonzero = Cast(s, NotEqual(s, x, Scalar(s, 0, T(op))), T(op));
  const std::string& kind = op.node()->type_string();
  Output gx, gy;
  if (kind == "Xlogy") {
    gx = Xlogy(s, nonzero, y), gy = Xdivy(s, x, y);
  } else if (kind == "Xlog1py") {
    gx = Xlog1py(s, nonzero, y), gy = Xdivy(s, x, Add(s, y, Scalar(s, 1, T(op))));
  } else {
    gx = Xdivy(s, nonzero, y), gy = Xdivy(s, Neg(s, x), Square(s, y));
  }
  grad::ReduceBinary(s, x, y, Mul(s, g[0], gx), Mul(s, g[0], gy), out);
  return s.status();
}
// d/dx polygamma(a, x) = polygamma(a + 1, x); none for a (TensorFlow's gives none either).
absl::Status PolygammaGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output a = In(op, 0), x = In(op, 1);
  Output gx = Mul(s, g[0], Polygamma(s, Add(s, a, Scalar(s, 1, T(op))), x));
  out->push_back(Output());
  out->push_back(grad::ReduceToOperand(s, gx, x, a.shape(), a));
  return s.status();
}
// Maximum and Minimum: the gradient goes to the operand that was chosen (x on ties).
template <bool kMax>
absl::Status MaxMinGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output x = In(op, 0), y = In(op, 1);
  Output y_wins = Cast(s, kMax ? Output(Greater(s, y, x)) : Output(Less(s, y, x)), T(op));
  Output gy = Mul(s, g[0], y_wins);
  grad::ReduceBinary(s, x, y, Sub(s, g[0], gy), gy, out);
  return s.status();
}

absl::Status NegGrad(const Scope& s, const Operation&, const GradOut& g, GradOut* out) {
  out->push_back(Neg(s, g[0]));
  return s.status();
}
absl::Status AbsGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, g[0], Sign(s, In(op, 0))));
  return s.status();
}
absl::Status SquareGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, g[0], Mul(s, In(op, 0), Scalar(s, 2, T(op)))));
  return s.status();
}
absl::Status SqrtGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Div(s, Mul(s, g[0], Scalar(s, 0.5, T(op))), Out(op)));
  return s.status();
}
absl::Status ExpGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, g[0], Out(op)));
  return s.status();
}
absl::Status LogGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Div(s, g[0], In(op, 0)));
  return s.status();
}

absl::Status AddNGrad(const Scope&, const Operation& op, const GradOut& g, GradOut* out) {
  out->assign(op.node()->num_inputs(), g[0]);
  return absl::OkStatus();
}

absl::Status MatMulGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const bool ta = op.node()->attr<bool>("transpose_a");
  const bool tb = op.node()->attr<bool>("transpose_b");
  Output a = In(op, 0), b = In(op, 1), dz = g[0];
  auto mm = [&](Output x, Output y, bool tx, bool ty) {
    return Output(MatMul(s, x, y, MatMul::TransposeA(tx).TransposeB(ty)));
  };
  if (!ta && !tb) {
    out->push_back(mm(dz, b, false, true));
    out->push_back(mm(a, dz, true, false));
  } else if (!ta && tb) {
    out->push_back(mm(dz, b, false, false));
    out->push_back(mm(dz, a, true, false));
  } else if (ta && !tb) {
    out->push_back(mm(b, dz, false, true));
    out->push_back(mm(a, dz, false, false));
  } else {
    out->push_back(mm(b, dz, true, true));
    out->push_back(mm(dz, a, true, true));
  }
  return s.status();
}

// The keep_dims shape of a reduction of x over `axes`: a constant when x's rank and the
// axes are known (dims of x still unknown stay -1 if there is at most one), else an op.
Output KeepDimsShape(const Scope& s, const Output& x, const Output& axes) {
  const PartialTensorShape& p = x.shape();
  const Tensor* ax = axes.node()->constant_value();
  if (!p.unknown_rank() && ax != nullptr) {
    auto values = shape_fns::IntValues(*ax, "axes");
    if (values.ok()) {
      std::vector<int64_t> dims(p.dim_sizes().begin(), p.dim_sizes().end());
      bool ok = true;
      for (int64_t a : *values) {
        if (a < -p.dims() || a >= p.dims()) ok = false;
        if (ok) dims[a < 0 ? a + p.dims() : a] = 1;
      }
      int unknown = 0;
      for (int64_t d : dims) unknown += d < 0;
      if (ok && unknown <= 1) return grad::IntVector(s, dims);
    }
  }
  return ReducedShape(s, Shape(s, x), axes);
}

// dy reshaped to keep_dims form (broadcastable against x).
Output KeepDimsGrad(const Scope& s, const Operation& op, const Output& dy) {
  if (op.node()->attr<bool>("keep_dims")) return dy;
  return Reshape(s, dy, KeepDimsShape(s, In(op, 0), In(op, 1)));
}

absl::Status SumGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output x = In(op, 0);
  out->push_back(BroadcastTo(s, KeepDimsGrad(s, op, g[0]), grad::ShapeOf(s, x)));
  out->push_back(Output());
  return s.status();
}

// TensorFlow's: x / (norm / dy), norm and dy in keep_dims form (NaN where the norm is 0).
absl::Status EuclideanNormGrad(const Scope& s, const Operation& op, const GradOut& g,
                               GradOut* out) {
  const Output norm = KeepDimsGrad(s, op, Out(op)), dy = KeepDimsGrad(s, op, g[0]);
  out->push_back(Div(s, In(op, 0), Div(s, norm, dy)));
  out->push_back(Output());
  return s.status();
}

// The graph optimizer runs a Mean-to-one-element's gradient as one kernel (_MeanAllGrad,
// runtime/passes/composites.cc), recognising what this function builds.
absl::Status MeanGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output x = In(op, 0), y = Out(op);
  const PartialTensorShape xs = x.shape(), ys = y.shape();
  Output count;
  if (xs.IsFullyDefined() && ys.IsFullyDefined()) {
    int64_t nx = 1, ny = 1;
    for (int64_t d : xs.dim_sizes()) nx *= d;
    for (int64_t d : ys.dim_sizes()) ny *= d;
    count = Scalar(s, ny == 0 ? 1.0 : static_cast<double>(nx / ny), T(op));
  } else {
    count = Cast(s, Div(s, Size(s, x), Maximum(s, Size(s, y), 1)), T(op));
  }
  out->push_back(BroadcastTo(s, Div(s, KeepDimsGrad(s, op, g[0]), count), grad::ShapeOf(s, x)));
  out->push_back(Output());
  return s.status();
}

// Every output element is dy / n, n = size(output): d/d(dy) = sum(g) / n (0 when empty).
absl::Status MeanAllGradGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output n = Cast(s, Maximum(s, Size(s, g[0]), 1), T(op));
  Output sum = Sum(s, Reshape(s, g[0], {-1}), 0);
  out->push_back(Reshape(s, Div(s, sum, n), grad::ShapeOf(s, In(op, 0))));
  out->push_back(Output());
  return s.status();
}

// Max and Min: split evenly among the elements equal to the extreme.
absl::Status ExtremeGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output x = In(op, 0);
  Output y = KeepDimsGrad(s, op, Out(op));
  Output hit = Cast(s, Equal(s, x, y), T(op));
  Output ties = Sum(s, hit, In(op, 1), Sum::KeepDims(true));
  out->push_back(Mul(s, Div(s, hit, ties), KeepDimsGrad(s, op, g[0])));
  out->push_back(Output());
  return s.status();
}

// The reduced axes of x (from the possibly negative, repeated reduction axes) and the
// permutation [reduced..., kept...] of x's dims, worked out at run time: any rank and axes.
struct ReducedAxes {
  Output reduced, perm;
};
ReducedAxes ReducedFirst(const Scope& s, const Output& shape, const Output& axes) {
  Output rank = Size(s, shape);
  Output a = Reshape(s, Cast(s, axes, DT_INT32), {-1});
  Output zero = Const(s, 0);
  Output canonical = SelectV2(s, Less(s, a, zero), Add(s, a, rank), a);
  Output hit =
      Equal(s, ExpandDims(s, Range(s, zero, rank, Const(s, 1)), 1), ExpandDims(s, canonical, 0));
  Output reduced_mask = Greater(s, Max(s, Cast(s, hit, DT_INT32), {1}), zero);
  auto positions = [&](Output mask) { return Cast(s, Reshape(s, Where(s, mask), {-1}), DT_INT32); };
  Output reduced = positions(reduced_mask);
  return {reduced, Concat(s, {reduced, positions(LogicalNot(s, reduced_mask))}, 0)};
}

// TensorFlow's: each element's gradient is the product of the other reduced elements,
// from exclusive cumulative products from both ends (so zeros in x are no problem). The
// reduced dims are moved first and flattened: [reduced elements, the rest].
absl::Status ProdGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const Output x = In(op, 0), shape = Shape(s, x);
  const ReducedAxes axes = ReducedFirst(s, shape, In(op, 1));
  Output permuted = Transpose(s, x, axes.perm);
  Output rows = Prod(s, Gather(s, shape, axes.reduced), 0);
  Output flat = Reshape(s, permuted, Stack(s, {rows, Const(s, -1)}));
  auto exclusive = ScanAttrs().Exclusive(true);
  Output others =
      Mul(s, Cumprod(s, flat, 0, exclusive), Cumprod(s, flat, 0, exclusive.Reverse(true)));
  Output back =
      Transpose(s, Reshape(s, others, Shape(s, permuted)), InvertPermutation(s, axes.perm));
  out->push_back(Mul(s, BroadcastTo(s, KeepDimsGrad(s, op, g[0]), shape), back));
  out->push_back(Output());
  return s.status();
}

// As TensorFlow's: t's gradient where t is within the bounds, each bound's where t is
// beyond it (summed to the bound's shape when the bound is a scalar).
absl::Status ClipByValueGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output t = In(op, 0), lo = In(op, 1), hi = In(op, 2);
  Output below = Less(s, t, lo), above = Greater(s, t, hi);
  Output zeros = ZerosLike(s, g[0]);
  // Selected, not multiplied by a 0/1 mask: an infinite or NaN gradient stays out of the
  // parts it does not reach, as in TensorFlow.
  auto times = [&](Output mask) { return SelectV2(s, mask, g[0], zeros); };
  out->push_back(times(LogicalNot(s, LogicalOr(s, below, above))));
  out->push_back(grad::ReduceToOperand(s, times(below), lo, t.shape(), t));
  out->push_back(grad::ReduceToOperand(s, times(above), hi, t.shape(), t));
  return s.status();
}

RILL_REGISTER_GRADIENT("Add", AddGrad);
RILL_REGISTER_GRADIENT("AddV2", AddGrad);
RILL_REGISTER_GRADIENT("ClipByValue", ClipByValueGrad);
RILL_REGISTER_GRADIENT("Sub", SubGrad);
RILL_REGISTER_GRADIENT("Mul", MulGrad);
RILL_REGISTER_GRADIENT("Div", DivGrad);
RILL_REGISTER_GRADIENT("RealDiv", DivGrad);  // its Div nodes compute the same for floats
RILL_REGISTER_GRADIENT("SquaredDifference", SquaredDifferenceGrad);
RILL_REGISTER_GRADIENT("Pow", PowGrad);
RILL_REGISTER_GRADIENT("Polygamma", PolygammaGrad);
RILL_REGISTER_GRADIENT("FloorMod", FloorModGrad);
RILL_REGISTER_GRADIENT("TruncateMod", TruncateModGrad);
RILL_REGISTER_GRADIENT("Mod", TruncateModGrad);
RILL_REGISTER_GRADIENT("Atan2", Atan2Grad);
RILL_REGISTER_GRADIENT("DivNoNan", DivNoNanGrad);
RILL_REGISTER_GRADIENT("MulNoNan", MulNoNanGrad);
RILL_REGISTER_GRADIENT("Xlogy", XGrad);
RILL_REGISTER_GRADIENT("Xlog1py", XGrad);
RILL_REGISTER_GRADIENT("Xdivy", XGrad);
// A step function: its slope is 0 wherever it has one (TensorFlow's gives none).
RILL_REGISTER_NO_GRADIENT("FloorDiv");
RILL_REGISTER_NO_GRADIENT("TruncateDiv");  // as TensorFlow's: steps, zero almost everywhere
RILL_REGISTER_GRADIENT("Maximum", MaxMinGrad<true>);
RILL_REGISTER_GRADIENT("Minimum", MaxMinGrad<false>);
RILL_REGISTER_GRADIENT("Neg", NegGrad);
RILL_REGISTER_GRADIENT("Abs", AbsGrad);
RILL_REGISTER_GRADIENT("Square", SquareGrad);
RILL_REGISTER_GRADIENT("Sqrt", SqrtGrad);
RILL_REGISTER_GRADIENT("Exp", ExpGrad);
RILL_REGISTER_GRADIENT("Log", LogGrad);
RILL_REGISTER_GRADIENT("AddN", AddNGrad);
RILL_REGISTER_GRADIENT("MatMul", MatMulGrad);
RILL_REGISTER_GRADIENT("Sum", SumGrad);
RILL_REGISTER_GRADIENT("Mean", MeanGrad);
RILL_REGISTER_GRADIENT("_MeanAllGrad", MeanAllGradGrad);
RILL_REGISTER_GRADIENT("Max", ExtremeGrad);
RILL_REGISTER_GRADIENT("Prod", ProdGrad);
RILL_REGISTER_GRADIENT("EuclideanNorm", EuclideanNormGrad);
RILL_REGISTER_GRADIENT("Min", ExtremeGrad);
RILL_REGISTER_NO_GRADIENT("Equal");
RILL_REGISTER_NO_GRADIENT("Less");
RILL_REGISTER_NO_GRADIENT("Greater");
RILL_REGISTER_NO_GRADIENT("NotEqual");
RILL_REGISTER_NO_GRADIENT("LessEqual");
RILL_REGISTER_NO_GRADIENT("GreaterEqual");
RILL_REGISTER_NO_GRADIENT("LogicalAnd");
RILL_REGISTER_NO_GRADIENT("LogicalOr");
RILL_REGISTER_NO_GRADIENT("LogicalNot");
RILL_REGISTER_NO_GRADIENT("All");
RILL_REGISTER_NO_GRADIENT("Any");
RILL_REGISTER_NO_GRADIENT("Sign");
RILL_REGISTER_NO_GRADIENT("ArgMax");
RILL_REGISTER_NO_GRADIENT("ArgMin");

}  // namespace
}  // namespace rill::ops
