// A numeric gradient check, as TensorFlow's tensorflow/cc/framework/gradient_checker.h: the
// Jacobian AddSymbolicGradients builds against central differences, for a user's own ops
// and gradient functions.
//   auto x = ops::Placeholder(scope, DT_FLOAT);
//   auto y = ops::Tanh(scope, x);
//   float max_error;
//   TF_ASSERT_OK((ComputeGradientError<float, float, float>(scope, {x}, {{2, 3}}, {y},
//                                                           {{2, 3}}, &max_error)));
//   EXPECT_LT(max_error, 1e-3);
#pragma once

#include <vector>

#include "absl/status/status.h"
#include "rill/core/tensor.h"
#include "rill/ops/scope.h"

namespace rill {

namespace gradient_checker_internal {
// The largest |symbolic - numeric| over the Jacobian of `ys` with respect to `xs`, the xs
// fed `x_values`, computed in float64 (x stepped by `delta`). A NoGradient() input counts
// as a Jacobian of zeros. InvalidArgument for mismatched counts, dtypes or shapes.
absl::Status MaxJacobianError(const Scope& scope, const OutputList& xs,
                              const std::vector<Tensor>& x_values, const OutputList& ys,
                              const std::vector<TensorShape>& y_shapes, double delta,
                              double* max_error);
// Uniform values in [-1, 1) of dtype `dt` and each shape, from a fixed seed.
absl::StatusOr<std::vector<Tensor>> RandomValues(DataType dt,
                                                 const std::vector<TensorShape>& shapes);
}  // namespace gradient_checker_internal

// xs are placeholders of dtype X_T fed random values of x_shapes; ys of dtype Y_T have
// y_shapes. *max_error gets the largest difference between the two Jacobians.
template <typename X_T, typename Y_T, typename JAC_T>
absl::Status ComputeGradientError(const Scope& scope, const OutputList& xs,
                                  const std::vector<TensorShape>& x_shapes, const OutputList& ys,
                                  const std::vector<TensorShape>& y_shapes, JAC_T* max_error) {
  absl::StatusOr<std::vector<Tensor>> values =
      gradient_checker_internal::RandomValues(DataTypeToEnum<X_T>::value, x_shapes);
  if (!values.ok()) return values.status();
  double err = 0;
  absl::Status s =
      gradient_checker_internal::MaxJacobianError(scope, xs, *values, ys, y_shapes, 1e-3, &err);
  *max_error = static_cast<JAC_T>(err);
  return s;
}

// The same for one x, fed x_init_value.
template <typename X_T, typename Y_T, typename JAC_T>
absl::Status ComputeGradientError(const Scope& scope, const Output& x, const Tensor& x_init_value,
                                  const Output& y, const TensorShape& y_shape, JAC_T* max_error) {
  double err = 0;
  absl::Status s = gradient_checker_internal::MaxJacobianError(scope, {x}, {x_init_value}, {y},
                                                               {y_shape}, 1e-3, &err);
  *max_error = static_cast<JAC_T>(err);
  return s;
}

// TensorFlow's single-dtype forms (X, Y and the Jacobian all T, deduced from max_error):
//   float max_error;
//   TF_ASSERT_OK(ComputeGradientError(scope, {x}, {x_shape}, {y}, {y_shape}, &max_error));
template <typename T>
absl::Status ComputeGradientError(const Scope& scope, const OutputList& xs,
                                  const std::vector<TensorShape>& x_shapes, const OutputList& ys,
                                  const std::vector<TensorShape>& y_shapes, T* max_error) {
  return ComputeGradientError<T, T, T>(scope, xs, x_shapes, ys, y_shapes, max_error);
}
template <typename T>
absl::Status ComputeGradientError(const Scope& scope, const Output& x, const TensorShape& x_shape,
                                  const Output& y, const TensorShape& y_shape, T* max_error) {
  return ComputeGradientError<T, T, T>(scope, OutputList{x}, {x_shape}, OutputList{y}, {y_shape},
                                       max_error);
}
template <typename T>
absl::Status ComputeGradientError(const Scope& scope, const Output& x, const Tensor& x_init_value,
                                  const Output& y, const TensorShape& y_shape, T* max_error) {
  return ComputeGradientError<T, T, T>(scope, x, x_init_value, y, y_shape, max_error);
}

}  // namespace rill
