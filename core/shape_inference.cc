#include "rill/core/shape_inference.h"

#include <algorithm>

#include "absl/strings/string_view.h"
#include "rill/core/shape_util.h"

namespace rill::shape_fns {

namespace {
absl::Status CheckBias(const PartialTensorShape& v, const PartialTensorShape& b) {
  if (!v.unknown_rank() && v.dims() < 1) {
    return errors::InvalidArgument("value must have rank >= 1, got a scalar");
  }
  if (!b.unknown_rank() && b.dims() != 1) {
    return errors::InvalidArgument("bias must have rank 1, got shape ", b.DebugString());
  }
  if (!v.unknown_rank() && !b.unknown_rank() && v.dim_size(v.dims() - 1) >= 0 &&
      b.dim_size(0) >= 0 && v.dim_size(v.dims() - 1) != b.dim_size(0)) {
    return errors::InvalidArgument("bias of shape ", b.DebugString(),
                                   " does not match the last dim of ", v.DebugString());
  }
  return absl::OkStatus();
}
}  // namespace

absl::Status BiasAdd(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(CheckBias(c.input_shape(0), c.input_shape(1)));
  return Unchanged(c);
}

absl::Status FusedActivationAttr(const InferenceContext& c) {
  const auto& a = c.attr<std::string>("activation");
  if (a != "relu" && a != "sigmoid" && a != "tanh") {
    return errors::InvalidArgument("activation must be relu, sigmoid or tanh, got '", a, "'");
  }
  return absl::OkStatus();
}

absl::Status FusedBiasActivation(InferenceContext& c, int bias_input) {
  RILL_RETURN_IF_ERROR(FusedActivationAttr(c));
  return FusedBias(c, bias_input);
}

absl::Status FusedBias(InferenceContext& c, int bias_input) {
  return CheckBias(c.outputs()[0], c.input_shape(bias_input));
}

absl::Status Unchanged(InferenceContext& c) {
  c.set_output(0, c.input_shape(0));
  return absl::OkStatus();
}

absl::Status SameShapes(InferenceContext& c) {
  const auto& a = c.input_shape(0);
  const auto& b = c.input_shape(1);
  if (!a.IsCompatibleWith(b)) {
    return errors::InvalidArgument("both inputs must have the same shape, got ", a.DebugString(),
                                   " and ", b.DebugString());
  }
  c.set_output(0, a.unknown_rank() ? b : a);
  return absl::OkStatus();
}

absl::Status Scalar(InferenceContext& c) {
  c.set_output(0, PartialTensorShape({}));
  return absl::OkStatus();
}

absl::Status NoOutputs(InferenceContext&) { return absl::OkStatus(); }

absl::StatusOr<PartialTensorShape> Broadcast(const PartialTensorShape& a,
                                             const PartialTensorShape& b) {
  if (a.unknown_rank() || b.unknown_rank()) return PartialTensorShape::UnknownRank();
  int rank = std::max(a.dims(), b.dims());
  absl::InlinedVector<int64_t, 8> out(rank);
  for (int i = 0; i < rank; ++i) {
    int ia = a.dims() - rank + i, ib = b.dims() - rank + i;
    int64_t da = ia >= 0 ? a.dim_size(ia) : 1;
    int64_t db = ib >= 0 ? b.dim_size(ib) : 1;
    if (da == 1) {
      out[i] = db;
    } else if (db == 1) {
      out[i] = da;
    } else if (da < 0 || db < 0) {
      out[i] = da < 0 ? db : da;  // one unknown: the known one, checked at run time
    } else if (da == db) {
      out[i] = da;
    } else {
      return errors::InvalidArgument("incompatible shapes for broadcasting: ", a.DebugString(),
                                     " vs. ", b.DebugString(), " (dimension ", i, ": ", da, " vs. ",
                                     db, ")");
    }
  }
  return PartialTensorShape(out);
}

absl::StatusOr<TensorShape> Broadcast(const TensorShape& a, const TensorShape& b) {
  RILL_ASSIGN_OR_RETURN(PartialTensorShape p,
                        Broadcast(PartialTensorShape(a), PartialTensorShape(b)));
  return p.AsTensorShape();
}

absl::Status BroadcastBinary(InferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(PartialTensorShape s, Broadcast(c.input_shape(0), c.input_shape(1)));
  c.set_output(0, std::move(s));
  return absl::OkStatus();
}

absl::StatusOr<absl::InlinedVector<int64_t, 8>> IntValues(const Tensor& t, absl::string_view what) {
  if (t.IsInitialized() && t.dims() > 1) {
    return errors::InvalidArgument(what, " must be a scalar or vector, got shape ",
                                   t.shape().DebugString());
  }
  return AllIntValues(t, what);
}

absl::StatusOr<absl::InlinedVector<int64_t, 8>> AllIntValues(const Tensor& t,
                                                             absl::string_view what) {
  if (!t.IsInitialized()) return errors::InvalidArgument(what, " is not initialized");
  absl::InlinedVector<int64_t, 8> v(t.NumElements());
  if (t.dtype() == DT_INT32) {
    for (size_t i = 0; i < v.size(); ++i) v[i] = t.base<int32_t>()[i];
  } else if (t.dtype() == DT_INT64) {
    for (size_t i = 0; i < v.size(); ++i) v[i] = t.base<int64_t>()[i];
  } else {
    return errors::InvalidArgument(what, " must be int32 or int64, got ",
                                   DataTypeString(t.dtype()));
  }
  return v;
}

absl::StatusOr<TensorShape> ShapeFromTensor(const Tensor& t, absl::string_view what) {
  RILL_ASSIGN_OR_RETURN(auto dims, IntValues(t, what));
  if (t.dims() != 1) {
    return errors::InvalidArgument(what, " must be a vector of dims, got shape ",
                                   t.shape().DebugString());
  }
  auto s = TensorShape::Build(dims);
  if (!s.ok()) return errors::Annotate(s.status(), absl::StrCat(what, ": "));
  return s;
}

absl::Status VectorInput(const InferenceContext& c, int i, absl::string_view what) {
  const PartialTensorShape& s = c.input_shape(i);
  if (!s.unknown_rank() && s.dims() != 1) {
    return errors::InvalidArgument(what, " must be a vector, got shape ", s.DebugString());
  }
  return absl::OkStatus();
}

absl::StatusOr<PartialTensorShape> ShapeFromShapeInput(const InferenceContext& c, int i,
                                                       absl::string_view what) {
  RILL_RETURN_IF_ERROR(VectorInput(c, i, what));
  const PartialTensorShape& s = c.input_shape(i);
  if (const Tensor* t = c.input_tensor(i)) {
    RILL_ASSIGN_OR_RETURN(TensorShape known, ShapeFromTensor(*t, what));
    return PartialTensorShape(known);
  }
  if (s.unknown_rank() || s.dim_size(0) < 0) return PartialTensorShape();
  return PartialTensorShape::UnknownOfRank(static_cast<int>(s.dim_size(0)));
}

absl::Status ScalarInput(const InferenceContext& c, int i, absl::string_view what) {
  const PartialTensorShape& s = c.input_shape(i);
  if (!s.unknown_rank() && s.dims() != 0) {
    return errors::InvalidArgument(what, " must be a scalar, got shape ", s.DebugString());
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<std::vector<int64_t>>> ConstInts(const InferenceContext& c, int i,
                                                              absl::string_view what) {
  const Tensor* t = c.input_tensor(i);
  if (t == nullptr) return std::optional<std::vector<int64_t>>();
  RILL_ASSIGN_OR_RETURN(auto v, IntValues(*t, what));
  return std::optional<std::vector<int64_t>>(std::vector<int64_t>(v.begin(), v.end()));
}

absl::StatusOr<std::vector<int64_t>> RankedDims(const InferenceContext& c, int i, int rank,
                                                absl::string_view what) {
  const PartialTensorShape& s = c.input_shape(i);
  if (s.unknown_rank()) return std::vector<int64_t>(rank, -1);
  if (s.dims() != rank) {
    return errors::InvalidArgument(what, " must have rank ", rank, ", got shape ", s.DebugString());
  }
  return std::vector<int64_t>(s.dim_sizes().begin(), s.dim_sizes().end());
}

absl::StatusOr<std::vector<int64_t>> PositiveSizes(const InferenceContext& c, int i, int n,
                                                   absl::string_view what) {
  RILL_ASSIGN_OR_RETURN(const std::vector<int64_t> dims, RankedDims(c, i, 1, what));
  if (dims[0] >= 0 && dims[0] != n) {
    return errors::InvalidArgument(what, " must be a ", n, "-element vector, got shape ",
                                   c.input_shape(i).DebugString());
  }
  RILL_ASSIGN_OR_RETURN(auto values, ConstInts(c, i, what));
  if (!values) return std::vector<int64_t>(n, -1);
  for (int64_t v : *values) {
    if (v < 1) return errors::InvalidArgument(what, " must be positive, got ", v);
  }
  return *values;
}

PartialTensorShape Known(absl::Span<const int64_t> d) {
  return PartialTensorShape(shape_util::Dims(d.begin(), d.end()));
}

absl::StatusOr<int> CanonicalAxis(int64_t axis, int rank, absl::string_view what) {
  if (axis < -rank || axis >= rank) {
    return errors::InvalidArgument(what, " ", axis, " is out of range for a tensor of rank ", rank,
                                   "; valid axes are [", -rank, ", ", rank, ")");
  }
  return static_cast<int>(axis < 0 ? axis + rank : axis);
}

}  // namespace rill::shape_fns
