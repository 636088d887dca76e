// Linear algebra ops: schemas, shape functions and wrappers (kernels:
// kernels/cpu/linalg_ops.cc; gradients: ops/linalg_grad.cc).
#include "rill/ops/linalg_ops.h"

#include <algorithm>
#include <vector>

#include "rill/core/shape_inference.h"

namespace rill {
namespace {

// Checks that `s` (input `what`) is a batch of square matrices, [..., M, M]; sets *batch
// to its leading dims and *m to M (-1 when unknown). An unknown rank leaves *batch
// unknown.
absl::Status SquareMatrices(const PartialTensorShape& s, const char* what,
                            PartialTensorShape* batch, int64_t* m) {
  *m = -1;
  if (s.unknown_rank()) {
    *batch = PartialTensorShape();
    return absl::OkStatus();
  }
  if (s.dims() < 2) {
    return errors::InvalidArgument(what, " must be at least rank 2 ([..., M, M]), got shape ",
                                   s.DebugString());
  }
  const int64_t rows = s.dim_size(s.dims() - 2), cols = s.dim_size(s.dims() - 1);
  if (rows >= 0 && cols >= 0 && rows != cols) {
    return errors::InvalidArgument(what, " must hold square matrices, got shape ", s.DebugString());
  }
  *m = rows >= 0 ? rows : cols;
  *batch = PartialTensorShape(s.dim_sizes().subspan(0, s.dims() - 2));
  return absl::OkStatus();
}

PartialTensorShape Append(const PartialTensorShape& batch, std::vector<int64_t> tail) {
  if (batch.unknown_rank()) return PartialTensorShape();
  std::vector<int64_t> dims(batch.dim_sizes().begin(), batch.dim_sizes().end());
  dims.insert(dims.end(), tail.begin(), tail.end());
  return PartialTensorShape(dims);
}

absl::Status DeterminantShape(InferenceContext& c) {
  PartialTensorShape batch;
  int64_t m;
  RILL_RETURN_IF_ERROR(SquareMatrices(c.input_shape(0), "input", &batch, &m));
  for (size_t i = 0; i < c.outputs().size(); ++i) c.set_output(static_cast<int>(i), batch);
  return absl::OkStatus();
}

absl::Status InverseShape(InferenceContext& c) {
  PartialTensorShape batch;
  int64_t m;
  RILL_RETURN_IF_ERROR(SquareMatrices(c.input_shape(0), "input", &batch, &m));
  c.set_output(0, Append(batch, {m, m}));
  return absl::OkStatus();
}

// rhs [..., M, K] with matrix's batch dims (TensorFlow's MatrixSolve does not broadcast).
absl::Status SolveShape(InferenceContext& c) {
  PartialTensorShape batch;
  int64_t m;
  RILL_RETURN_IF_ERROR(SquareMatrices(c.input_shape(0), "matrix", &batch, &m));
  const PartialTensorShape& rhs = c.input_shape(1);
  if (rhs.unknown_rank()) {
    c.set_output(0, batch.unknown_rank() ? PartialTensorShape()
                                         : PartialTensorShape::UnknownOfRank(batch.dims() + 2));
    return absl::OkStatus();
  }
  if (rhs.dims() < 2) {
    return errors::InvalidArgument("rhs must be at least rank 2 ([..., M, K]), got shape ",
                                   rhs.DebugString());
  }
  const PartialTensorShape rhs_batch(rhs.dim_sizes().subspan(0, rhs.dims() - 2));
  const int64_t rows = rhs.dim_size(rhs.dims() - 2);
  if (!batch.unknown_rank() &&
      (!rhs_batch.IsCompatibleWith(batch) || (m >= 0 && rows >= 0 && rows != m))) {
    return errors::InvalidArgument("rhs of shape ", rhs.DebugString(),
                                   " does not fit matrices of shape ",
                                   Append(batch, {m, m}).DebugString(), " (needs [..., M, K])");
  }
  c.set_output(0, Append(batch.unknown_rank() ? rhs_batch : batch,
                         {m >= 0 ? m : rows, rhs.dim_size(rhs.dims() - 1)}));
  return absl::OkStatus();
}

// e [..., M]; v [..., M, M], or [0] when compute_v is false (TensorFlow's).
absl::Status EigShape(InferenceContext& c) {
  PartialTensorShape batch;
  int64_t m;
  RILL_RETURN_IF_ERROR(SquareMatrices(c.input_shape(0), "input", &batch, &m));
  c.set_output(0, Append(batch, {m}));
  c.set_output(1, c.attr<bool>("compute_v") ? Append(batch, {m, m}) : PartialTensorShape({0}));
  return absl::OkStatus();
}

// A batch of matrices [..., M, N] (at least rank 2): *batch, *m and *n (-1 when unknown),
// and *p = min(M, N) (-1 unless both are known, or one is 0).
absl::Status Matrices(const PartialTensorShape& s, PartialTensorShape* batch, int64_t* m,
                      int64_t* n, int64_t* p) {
  *m = *n = *p = -1;
  if (s.unknown_rank()) {
    *batch = PartialTensorShape();
    return absl::OkStatus();
  }
  if (s.dims() < 2) {
    return errors::InvalidArgument("input must be at least rank 2 ([..., M, N]), got shape ",
                                   s.DebugString());
  }
  *m = s.dim_size(s.dims() - 2);
  *n = s.dim_size(s.dims() - 1);
  if (*m == 0 || *n == 0) {
    *p = 0;
  } else if (*m >= 0 && *n >= 0) {
    *p = std::min(*m, *n);
  }
  *batch = PartialTensorShape(s.dim_sizes().subspan(0, s.dims() - 2));
  return absl::OkStatus();
}

// q [..., M, P] and r [..., P, N]; full_matrices: q [..., M, M], r [..., M, N].
absl::Status QrShape(InferenceContext& c) {
  PartialTensorShape batch;
  int64_t m, n, p;
  RILL_RETURN_IF_ERROR(Matrices(c.input_shape(0), &batch, &m, &n, &p));
  const int64_t k = c.attr<bool>("full_matrices") ? m : p;
  c.set_output(0, Append(batch, {m, k}));
  c.set_output(1, Append(batch, {k, n}));
  return absl::OkStatus();
}

// s [..., P]; u [..., M, P] and v [..., N, P] (full_matrices: [..., M, M], [..., N, N]), or
// [0] each without compute_uv.
absl::Status SvdShape(InferenceContext& c) {
  PartialTensorShape batch;
  int64_t m, n, p;
  RILL_RETURN_IF_ERROR(Matrices(c.input_shape(0), &batch, &m, &n, &p));
  c.set_output(0, Append(batch, {p}));
  if (!c.attr<bool>("compute_uv")) {
    c.set_output(1, PartialTensorShape({0}));
    c.set_output(2, PartialTensorShape({0}));
    return absl::OkStatus();
  }
  const bool full = c.attr<bool>("full_matrices");
  c.set_output(1, Append(batch, {m, full ? m : p}));
  c.set_output(2, Append(batch, {n, full ? n : p}));
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_OP("Qr")
    .Input("input", "T")
    .Output("q", "T")
    .Output("r", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("full_matrices", AttrKind::kBool, false)
    .SetShapeFn(QrShape);

RILL_REGISTER_OP("Svd")
    .Input("input", "T")
    .Output("s", "T")
    .Output("u", "T")
    .Output("v", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("compute_uv", AttrKind::kBool, true)
    .Attr("full_matrices", AttrKind::kBool, false)
    .SetShapeFn(SvdShape);

RILL_REGISTER_OP("SelfAdjointEigV2")
    .Input("input", "T")
    .Output("e", "T")
    .Output("v", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("compute_v", AttrKind::kBool, true)
    .SetShapeFn(EigShape);

RILL_REGISTER_OP("MatrixDeterminant")
    .Input("input", "T")
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(DeterminantShape);

RILL_REGISTER_OP("LogMatrixDeterminant")
    .Input("input", "T")
    .Output("sign", "T")
    .Output("log_abs_determinant", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(DeterminantShape);

RILL_REGISTER_OP("MatrixInverse")
    .Input("input", "T")
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("adjoint", AttrKind::kBool, false)
    .SetShapeFn(InverseShape);

RILL_REGISTER_OP("MatrixSolve")
    .Input("matrix", "T")
    .Input("rhs", "T")
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("adjoint", AttrKind::kBool, false)
    .SetShapeFn(SolveShape);

RILL_REGISTER_OP("Cholesky")
    .Input("input", "T")
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(InverseShape);

RILL_REGISTER_OP("MatrixTriangularSolve")
    .Input("matrix", "T")
    .Input("rhs", "T")
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("lower", AttrKind::kBool, true)
    .Attr("adjoint", AttrKind::kBool, false)
    .SetShapeFn(SolveShape);

namespace ops {

using internal::NodeBuilder;

MatrixDeterminant::MatrixDeterminant(const Scope& scope, Input input) {
  NodeBuilder(scope, "MatrixDeterminant").Input(input).Finalize(this);
}

LogMatrixDeterminant::LogMatrixDeterminant(const Scope& scope, Input input) {
  operation = NodeBuilder(scope, "LogMatrixDeterminant").Input(input).Finalize();
  if (operation.node() != nullptr) {
    sign = Output(operation, 0);
    log_abs_determinant = Output(operation, 1);
  }
}

MatrixInverse::MatrixInverse(const Scope& scope, Input input, const Attrs& attrs) {
  NodeBuilder(scope, "MatrixInverse").Input(input).Attr("adjoint", attrs.adjoint_).Finalize(this);
}

MatrixSolve::MatrixSolve(const Scope& scope, Input matrix, Input rhs, const Attrs& attrs) {
  NodeBuilder(scope, "MatrixSolve")
      .Input(matrix)
      .Input(rhs)
      .Attr("adjoint", attrs.adjoint_)
      .Finalize(this);
}

SelfAdjointEigV2::SelfAdjointEigV2(const Scope& scope, Input input, const Attrs& attrs) {
  operation = NodeBuilder(scope, "SelfAdjointEigV2")
                  .Input(input)
                  .Attr("compute_v", attrs.compute_v_)
                  .Finalize();
  if (operation.node() != nullptr) {
    e = Output(operation, 0);
    v = Output(operation, 1);
  }
}

Qr::Qr(const Scope& scope, Input input, const Attrs& attrs) {
  operation =
      NodeBuilder(scope, "Qr").Input(input).Attr("full_matrices", attrs.full_matrices_).Finalize();
  if (operation.node() != nullptr) {
    q = Output(operation, 0);
    r = Output(operation, 1);
  }
}

Svd::Svd(const Scope& scope, Input input, const Attrs& attrs) {
  operation = NodeBuilder(scope, "Svd")
                  .Input(input)
                  .Attr("compute_uv", attrs.compute_uv_)
                  .Attr("full_matrices", attrs.full_matrices_)
                  .Finalize();
  if (operation.node() != nullptr) {
    s = Output(operation, 0);
    u = Output(operation, 1);
    v = Output(operation, 2);
  }
}

Cholesky::Cholesky(const Scope& scope, Input input) {
  NodeBuilder(scope, "Cholesky").Input(input).Finalize(this);
}

MatrixTriangularSolve::MatrixTriangularSolve(const Scope& scope, Input matrix, Input rhs,
                                             const Attrs& attrs) {
  NodeBuilder(scope, "MatrixTriangularSolve")
      .Input(matrix)
      .Input(rhs)
      .Attr("lower", attrs.lower_)
      .Attr("adjoint", attrs.adjoint_)
      .Finalize(this);
}

}  // namespace ops
}  // namespace rill
