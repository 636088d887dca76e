// Tensor helpers for users' GoogleTest tests, as TensorFlow's tensor_testutil.h names
// them: build a tensor from values, compare two tensors exactly or within a tolerance.
// Needs GoogleTest (find_package(GTest)).
//   Tensor x = test::AsTensor<float>({1, 2, 3, 4}, {2, 2});
//   test::ExpectTensorNear<float>(out[0], x, 1e-5);
#pragma once

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <type_traits>

#include "absl/types/span.h"
#include "gtest/gtest.h"
#include "rill/core/tensor.h"

namespace rill::test {

// A 1-D tensor of `values`, or one of `shape` (whose element count must match: a
// mismatch fails the test and returns an uninitialized tensor).
template <typename T>
Tensor AsTensor(absl::Span<const T> values, const TensorShape& shape) {
  if (shape.num_elements() != static_cast<int64_t>(values.size())) {
    ADD_FAILURE() << "AsTensor: " << values.size() << " values for shape " << shape.DebugString();
    return Tensor();
  }
  Tensor t(DataTypeToEnum<T>::value, shape);
  for (size_t i = 0; i < values.size(); ++i) t.flat<T>()(i) = values[i];
  return t;
}
template <typename T>
Tensor AsTensor(absl::Span<const T> values) {
  return AsTensor<T>(values, TensorShape({static_cast<int64_t>(values.size())}));
}
template <typename T>
Tensor AsTensor(std::initializer_list<T> values, const TensorShape& shape) {
  return AsTensor<T>(absl::Span<const T>(values.begin(), values.size()), shape);
}
template <typename T>
Tensor AsTensor(std::initializer_list<T> values) {
  return AsTensor<T>(absl::Span<const T>(values.begin(), values.size()));
}
template <typename T>
Tensor AsScalar(const T& v) {
  return Tensor(v);
}

// Fills `t` with `values` (their count must be its element count) or with
// start, start+1, ...
template <typename T>
void FillValues(Tensor* t, std::initializer_list<T> values) {
  ASSERT_EQ(t->NumElements(), static_cast<int64_t>(values.size()));
  int64_t i = 0;
  for (const T& v : values) t->flat<T>()(i++) = v;
}
template <typename T>
void FillIota(Tensor* t, const T& start) {
  for (int64_t i = 0; i < t->NumElements(); ++i) t->flat<T>()(i) = start + static_cast<T>(i);
}
// Element i of `t` set to fn(i).
template <typename T, typename Fn>
void FillFn(Tensor* t, Fn fn) {
  for (int64_t i = 0; i < t->NumElements(); ++i) t->flat<T>()(i) = fn(static_cast<int>(i));
}

namespace internal {
// Same dtype and shape, or a failure that says which differs (and no values compared).
inline ::testing::AssertionResult SameKind(const Tensor& x, const Tensor& y) {
  if (x.dtype() != y.dtype()) {
    return ::testing::AssertionFailure()
           << "dtypes differ: " << DataTypeString(x.dtype()) << " vs " << DataTypeString(y.dtype());
  }
  if (!(x.shape() == y.shape())) {
    return ::testing::AssertionFailure()
           << "shapes differ: " << x.shape().DebugString() << " vs " << y.shape().DebugString();
  }
  return ::testing::AssertionSuccess();
}
// Equal values (infinities of one sign included), two NaNs, or |a-b| <= atol + rtol*|b|.
template <typename T>
bool IsClose(T a, T b, double atol, double rtol) {
  if constexpr (std::is_same_v<T, complex64>) {
    return IsClose(a.real(), b.real(), atol, rtol) && IsClose(a.imag(), b.imag(), atol, rtol);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    if (a == b) return true;
    return std::abs(static_cast<double>(a) - static_cast<double>(b)) <=
           atol + rtol * std::abs(static_cast<double>(b));
  } else {
    return a == b;
  }
}
template <typename T>
void ExpectClose(const Tensor& x, const Tensor& y, double atol, double rtol) {
  if (::testing::AssertionResult same = SameKind(x, y); !same) {
    ADD_FAILURE() << same.message();
    return;
  }
  const auto a = x.unaligned_flat<T>();  // either may be a Slice
  const auto b = y.unaligned_flat<T>();
  for (int64_t i = 0; i < x.NumElements(); ++i) {
    EXPECT_TRUE(IsClose<T>(a(i), b(i), atol, rtol))
        << "element " << i << ": " << +a(i) << " vs " << +b(i) << " (atol " << atol << ", rtol "
        << rtol << ")";
  }
}
}  // namespace internal

// Same dtype (T's), shape and values (two NaNs count as equal).
template <typename T>
void ExpectTensorEqual(const Tensor& x, const Tensor& y) {
  ASSERT_EQ(x.dtype(), DataTypeToEnum<T>::value);
  internal::ExpectClose<T>(x, y, 0, 0);
}
// Same dtype, shape, and values each within `atol` of the other's.
template <typename T>
void ExpectTensorNear(const Tensor& x, const Tensor& y, double atol) {
  ASSERT_EQ(x.dtype(), DataTypeToEnum<T>::value);
  internal::ExpectClose<T>(x, y, atol, 0);
}
namespace internal {
// f(TypeTag<T>{}) for x's element type, complex64 included; a failure for a tensor with
// no element type, so that comparing it never passes by comparing nothing.
template <typename F>
void VisitForCompare(const Tensor& x, F&& f) {
  if (x.dtype() == DT_COMPLEX64) {
    f(TypeTag<complex64>{});
  } else if (!VisitDataType(x.dtype(), f)) {
    ADD_FAILURE() << "cannot compare tensors of dtype " << DataTypeString(x.dtype());
  }
}
}  // namespace internal

// ExpectTensorEqual for whatever dtype x has.
inline void ExpectEqual(const Tensor& x, const Tensor& y) {
  internal::VisitForCompare(
      x, [&](auto tag) { internal::ExpectClose<typename decltype(tag)::type>(x, y, 0, 0); });
}
// |x - y| <= atol + rtol * |y| elementwise; a negative tolerance takes the dtype's default
// (1e-5 for float, 1e-10 for double; integers and bools compare exactly).
inline void ExpectClose(const Tensor& x, const Tensor& y, double atol = -1, double rtol = -1) {
  const double fallback = x.dtype() == DT_FLOAT || x.dtype() == DT_COMPLEX64 ? 1e-5 : 1e-10;
  internal::VisitForCompare(x, [&](auto tag) {
    internal::ExpectClose<typename decltype(tag)::type>(x, y, atol < 0 ? fallback : atol,
                                                        rtol < 0 ? fallback : rtol);
  });
}

}  // namespace rill::test
