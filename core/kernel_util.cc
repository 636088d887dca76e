#include "rill/core/kernel_util.h"

#include "rill/core/random_draw_row.h"
#include "rill/core/shape_inference.h"
#include "rill/core/shape_util.h"

namespace rill {

absl::StatusOr<absl::InlinedVector<int64_t, 8>> IntVectorInput(const Tensor& t,
                                                               absl::string_view what) {
  if (t.dims() != 1) {
    return errors::InvalidArgument(what, " must be a vector, got shape ", t.shape().DebugString());
  }
  return shape_fns::IntValues(t, what);
}

absl::Status AliasInputAsOutput(OpKernelContext& ctx, const TensorShape& shape) {
  Tensor out;
  if (!out.CopyFrom(ctx.input(0), shape)) {
    return errors::Internal("alias of ", ctx.input(0).shape().DebugString(), " as ",
                            shape.DebugString(), " lost elements");
  }
  ctx.set_output(0, std::move(out));
  return absl::OkStatus();
}

absl::Status PrepareAddN(OpKernelContext& ctx, Tensor** out) {
  const Tensor& first = ctx.input(0);
  for (int i = 1; i < ctx.num_inputs(); ++i) {
    if (ctx.input(i).shape() != first.shape()) {
      return errors::InvalidArgument("inputs must have the same shape; input 0 is ",
                                     first.shape().DebugString(), ", input ", i, " is ",
                                     ctx.input(i).shape().DebugString());
    }
  }
  return ctx.allocate_output(0, first.shape(), out);
}

absl::StatusOr<MatMulGeometry> PrepareMatMul(OpKernelContext& ctx, bool ta, bool tb, Tensor** out) {
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(1);
  RILL_ASSIGN_OR_RETURN(auto dims,
                        shape_util::MatMul(a.shape().dim_sizes(), b.shape().dim_sizes(), ta, tb));
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(dims));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, out));
  return MatMulGeometry{dims[0], dims[1], ta ? a.dim_size(0) : a.dim_size(1)};
}

absl::StatusOr<OneHotGeometry> PrepareOneHot(OpKernelContext& ctx, int64_t axis, Tensor** out) {
  const Tensor& idx = ctx.input(0);
  const Tensor& depth_t = ctx.input(1);
  if (depth_t.dims() != 0) {
    return errors::InvalidArgument("depth must be a scalar, got shape ",
                                   depth_t.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(auto depth, shape_fns::IntValues(depth_t, "depth"));
  if (ctx.input(2).dims() != 0 || ctx.input(3).dims() != 0) {
    return errors::InvalidArgument("on_value and off_value must be scalars");
  }
  RILL_ASSIGN_OR_RETURN(auto dims, shape_util::OneHot(idx.shape().dim_sizes(), depth[0], axis));
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(dims));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, out));
  const int ax = axis == -1 ? idx.dims() : static_cast<int>(axis);
  OneHotGeometry g{1, depth[0], 1};
  for (int i = 0; i < idx.dims(); ++i) (i < ax ? g.outer : g.inner) *= idx.dim_size(i);
  return g;
}

absl::StatusOr<AxisGeometry> PrepareArgMax(OpKernelContext& ctx, Tensor** out) {
  const Tensor& x = ctx.input(0);
  const Tensor& d = ctx.input(1);
  if (d.NumElements() != 1) {
    return errors::InvalidArgument("dimension must hold one value, got shape ",
                                   d.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(auto axis, shape_fns::IntValues(d, "dimension"));
  int ax;
  RILL_ASSIGN_OR_RETURN(auto dims, shape_util::ArgMax(x.shape().dim_sizes(), axis[0], &ax));
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(dims));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, out));
  AxisGeometry g{1, x.dim_size(ax), 1};
  for (int i = 0; i < ax; ++i) g.outer *= x.dim_size(i);
  for (int i = ax + 1; i < x.dims(); ++i) g.inner *= x.dim_size(i);
  return g;
}

absl::StatusOr<int64_t> PrepareSoftmax(OpKernelContext& ctx, Tensor** out) {
  const Tensor& x = ctx.input(0);
  if (x.dims() < 1) {
    return errors::InvalidArgument("logits must have rank >= 1, got shape ",
                                   x.shape().DebugString());
  }
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), out));
  return x.NumElements() == 0 ? 0 : x.dim_size(x.dims() - 1);
}

absl::StatusOr<ReductionGeometry> PrepareReduction(OpKernelContext& ctx, bool keep_dims,
                                                   Tensor** out) {
  const Tensor& x = ctx.input(0);
  RILL_ASSIGN_OR_RETURN(auto axes, shape_fns::IntValues(ctx.input(1), "reduction axes"));
  std::vector<bool> mask;
  RILL_ASSIGN_OR_RETURN(auto dims,
                        shape_util::Reduce(x.shape().dim_sizes(), axes, keep_dims, &mask));
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(dims));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, out));
  ReductionGeometry g;
  g.groups = shape_util::ReductionGroups(x.shape().dim_sizes(), mask);
  for (int i = 0; i < x.dims(); ++i)
    if (mask[i]) g.reduced_count *= x.dim_size(i);
  return g;
}

RandomKernelBase::RandomKernelBase(OpKernelConstruction& c)
    : OpKernel(c),
      key_(random::KeyFromSeeds(c.node().attr<int64_t>("seed"), c.node().attr<int64_t>("seed2"))),
      state_(random::StreamFor(c.resources(), c.node().name())) {}

absl::StatusOr<RandomDraw> RandomKernelBase::Prepare(OpKernelContext& ctx, Tensor** out) {
  RILL_ASSIGN_OR_RETURN(TensorShape shape, shape_fns::ShapeFromTensor(ctx.input(0), "shape"));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, out));
  // A fixed budget per element, so concurrent runs never draw the same blocks.
  return Draw(ctx, (*out)->NumElements());
}

absl::StatusOr<RandomDraw> RandomKernelBase::Draw(OpKernelContext& ctx, int64_t blocks) {
  random::StreamState* state = state_;
  const auto count = static_cast<uint64_t>(blocks);
  RILL_ASSIGN_OR_RETURN(const uint64_t* recorded, ctx.device()->ReplayCounter([state, count] {
    return state->next.fetch_add(count, std::memory_order_relaxed);
  }));
  if (recorded != nullptr) return RandomDraw{0, recorded};
  return RandomDraw{Reserve(blocks), nullptr};
}

absl::Status CheckSameShapes(const OpKernelContext& ctx) {
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(1);
  if (a.shape() != b.shape()) {
    return errors::InvalidArgument("both inputs must have the same shape, got ",
                                   a.shape().DebugString(), " and ", b.shape().DebugString());
  }
  return absl::OkStatus();
}

absl::StatusOr<ClipGeometry> PrepareClipByValue(OpKernelContext& ctx, Tensor** out) {
  const Tensor& t = ctx.input(0);
  for (int i = 1; i <= 2; ++i) {
    const Tensor& b = ctx.input(i);
    if (b.dims() != 0 && b.shape() != t.shape()) {
      return errors::InvalidArgument(i == 1 ? "clip_value_min" : "clip_value_max",
                                     " must be a scalar or of t's shape ", t.shape().DebugString(),
                                     ", got ", b.shape().DebugString());
    }
  }
  const int64_t lo_step = ctx.input(1).dims() == 0 ? 0 : 1;
  const int64_t hi_step = ctx.input(2).dims() == 0 ? 0 : 1;
  RILL_RETURN_IF_ERROR(ctx.forward_or_allocate_output(0, 0, t.shape(), out));
  return ClipGeometry{(*out)->NumElements(), lo_step, hi_step};
}

float AlphaAttrOrZero(const OpKernelConstruction& c) {
  return c.node().attrs().contains("alpha") ? c.node().attr<float>("alpha") : 0.0f;
}

absl::StatusOr<XentGeometry> PrepareXent(OpKernelContext& ctx, bool sparse, Tensor** loss,
                                         Tensor** backprop) {
  const Tensor& f = ctx.input(0);
  const Tensor& l = ctx.input(1);
  if (f.dims() != 2) {
    return errors::InvalidArgument("features must be [batch, classes], got shape ",
                                   f.shape().DebugString());
  }
  const int64_t batch = f.dim_size(0), classes = f.dim_size(1);
  if (sparse ? (l.dims() != 1 || l.dim_size(0) != batch) : l.shape() != f.shape()) {
    return errors::InvalidArgument("labels of shape ", l.shape().DebugString(),
                                   " do not fit features of shape ", f.shape().DebugString());
  }
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({batch}), loss));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(1, f.shape(), backprop));
  return XentGeometry{batch, classes};
}

absl::StatusOr<AccuracyKind> ParseAccuracyKind(absl::string_view kind) {
  if (kind == "categorical") return AccuracyKind::kCategorical;
  if (kind == "sparse_categorical") return AccuracyKind::kSparseCategorical;
  if (kind == "binary") return AccuracyKind::kBinary;
  return errors::InvalidArgument(
      "accuracy kind must be categorical, sparse_categorical or binary, got '", kind, "'");
}

AccuracyKind AccuracyKindOf(const OpKernelConstruction& c) {
  return ParseAccuracyKind(c.node().attr<std::string>("kind")).value_or(AccuracyKind::kCategorical);
}

absl::StatusOr<AccuracyGeometry> PrepareAccuracy(OpKernelContext& ctx, AccuracyKind kind,
                                                 Tensor** out) {
  const Tensor& o = ctx.input(0);
  const Tensor& l = ctx.input(1);
  AccuracyGeometry g{o.NumElements(), 1};
  if (kind != AccuracyKind::kBinary) {
    if (o.dims() != 2) {
      return errors::InvalidArgument("outputs must be [batch, classes], got shape ",
                                     o.shape().DebugString());
    }
    g = {o.dim_size(0), o.dim_size(1)};
    if (g.classes == 0 && g.examples > 0) {
      return errors::InvalidArgument("outputs of shape ", o.shape().DebugString(),
                                     " have no classes");
    }
  }
  const bool fits =
      kind == AccuracyKind::kCategorical ? l.shape() == o.shape() : l.NumElements() == g.examples;
  if (!fits) {
    return errors::InvalidArgument("labels of shape ", l.shape().DebugString(),
                                   " do not fit outputs of shape ", o.shape().DebugString());
  }
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({}), out));
  return g;
}

absl::Status PrepareMeanAllGrad(OpKernelContext& ctx, Tensor** out) {
  const Tensor& dy = ctx.input(0);
  if (dy.NumElements() != 1) {
    return errors::InvalidArgument("gradients must have one element, got shape ",
                                   dy.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(TensorShape shape, shape_fns::ShapeFromTensor(ctx.input(1), "shape"));
  return ctx.allocate_output(0, shape, out);
}

namespace {
template <typename Label>
absl::Status CheckLabels(const Label* ids, int64_t n, int64_t classes) {
  for (int64_t r = 0; r < n; ++r) {
    if (ids[r] < 0 || ids[r] >= classes) {
      return errors::InvalidArgument("label ", static_cast<int64_t>(ids[r]), " of row ", r,
                                     " is outside the valid range [0, ", classes, ")");
    }
  }
  return absl::OkStatus();
}
}  // namespace

absl::Status CheckSparseLabels(const Tensor& labels, int64_t classes) {
  if (labels.dtype() == DT_INT32) {
    return CheckLabels(labels.base<int32_t>(), labels.NumElements(), classes);
  }
  if (labels.dtype() == DT_INT64) {
    return CheckLabels(labels.base<int64_t>(), labels.NumElements(), classes);
  }
  return errors::InvalidArgument("sparse labels must be int32 or int64, got ",
                                 DataTypeString(labels.dtype()));
}

absl::StatusOr<MatMulGeometry> FusedUpdateGeometry(const OpKernelContext& ctx, bool ta, bool tb) {
  const Tensor& a = ctx.input(2);
  const Tensor& b = ctx.input(3);
  if (a.dims() != 2 || b.dims() != 2) {
    return errors::InvalidArgument("a and b must be matrices, got ", a.shape().DebugString(),
                                   " and ", b.shape().DebugString());
  }
  const int64_t m = a.dim_size(ta ? 1 : 0), k = a.dim_size(ta ? 0 : 1);
  const int64_t kb = b.dim_size(tb ? 1 : 0), n = b.dim_size(tb ? 0 : 1);
  if (k != kb) {
    return errors::InvalidArgument("inner dimensions differ: ", a.shape().DebugString(), " x ",
                                   b.shape().DebugString());
  }
  return MatMulGeometry{m, n, k};
}

absl::StatusOr<RandomDraw> RandomKernelBase::PrepareDropout(OpKernelContext& ctx, float rate,
                                                            Tensor** out, Tensor** mask) {
  if (!(rate >= 0.f && rate < 1.f)) {
    return errors::InvalidArgument("rate must be in [0, 1), got ", rate);
  }
  const TensorShape& shape = ctx.input(0).shape();
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, out));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(1, shape, mask));
  return Draw(ctx, (shape.num_elements() + 3) / 4);
}

template <typename T>
absl::StatusOr<RandomDraw> RandomKernelBase::PrepareUniformInt(OpKernelContext& ctx, Tensor** out,
                                                               T* lo, uint64_t* range) {
  const Tensor &minval = ctx.input(1), &maxval = ctx.input(2);
  for (const Tensor* t : {&minval, &maxval}) {
    if (t->dims() != 0) {
      return errors::InvalidArgument(t == &minval ? "minval" : "maxval",
                                     " must be a scalar, got shape ", t->shape().DebugString());
    }
  }
  RILL_ASSIGN_OR_RETURN(TensorShape shape, shape_fns::ShapeFromTensor(ctx.input(0), "shape"));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, out));
  *lo = minval.scalar<T>()();
  const T hi = maxval.scalar<T>()();
  if (shape.num_elements() > 0 && !(*lo < hi)) {
    return errors::InvalidArgument("Need minval < maxval: ", *lo, " >= ", hi);
  }
  *range = *lo < hi ? random::UniformIntRange(*lo, hi) : 1;
  return Draw(ctx, shape.num_elements());
}
template absl::StatusOr<RandomDraw> RandomKernelBase::PrepareUniformInt<int32_t>(OpKernelContext&,
                                                                                 Tensor**, int32_t*,
                                                                                 uint64_t*);
template absl::StatusOr<RandomDraw> RandomKernelBase::PrepareUniformInt<int64_t>(OpKernelContext&,
                                                                                 Tensor**, int64_t*,
                                                                                 uint64_t*);

absl::StatusOr<RandomKernelBase::MultinomialDraw> RandomKernelBase::PrepareMultinomial(
    OpKernelContext& ctx, Tensor** out) {
  const Tensor &logits = ctx.input(0), &num = ctx.input(1);
  if (logits.dims() != 2) {
    return errors::InvalidArgument("logits must be a matrix [batch, classes], got shape ",
                                   logits.shape().DebugString());
  }
  if (num.dims() != 0) {
    return errors::InvalidArgument("num_samples must be a scalar, got shape ",
                                   num.shape().DebugString());
  }
  const int64_t samples = num.scalar<int32_t>()();
  if (samples < 0)
    return errors::InvalidArgument("num_samples must not be negative, got ", samples);
  if (logits.dim_size(1) == 0) {
    return errors::InvalidArgument("logits ", logits.shape().DebugString(), " have no classes");
  }
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({logits.dim_size(0), samples}), out));
  RILL_ASSIGN_OR_RETURN(const RandomDraw draw, Draw(ctx, (*out)->NumElements()));
  return MultinomialDraw{draw, logits.dim_size(0), logits.dim_size(1), samples};
}

uint64_t RandomKernelBase::Reserve(int64_t blocks) {
  return state_->next.fetch_add(static_cast<uint64_t>(blocks), std::memory_order_relaxed);
}

}  // namespace rill
