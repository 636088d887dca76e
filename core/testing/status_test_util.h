// GoogleTest assertions on a Status or StatusOr, printing the status when it is not OK.
// TensorFlow's spellings (TF_EXPECT_OK, TF_ASSERT_OK) are defined too, as TensorFlow's
// status_test_util.h defines them. Needs GoogleTest (find_package(GTest)).
#pragma once

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gtest/gtest.h"

namespace rill::test {
inline const absl::Status& StatusOf(const absl::Status& s) { return s; }
template <typename T>
const absl::Status& StatusOf(const absl::StatusOr<T>& s) {
  return s.status();
}
}  // namespace rill::test

#define RILL_EXPECT_OK(expr) EXPECT_EQ(::rill::test::StatusOf(expr), ::absl::OkStatus())
#define RILL_ASSERT_OK(expr) ASSERT_EQ(::rill::test::StatusOf(expr), ::absl::OkStatus())
#define TF_EXPECT_OK(expr) RILL_EXPECT_OK(expr)
#define TF_ASSERT_OK(expr) RILL_ASSERT_OK(expr)
