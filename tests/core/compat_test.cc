// TensorFlow's spellings of statuses and test helpers (core/status.h, core/tf_compat.h,
// core/testing/): each behaves as TensorFlow documents it.
#include <limits>

#include "gtest/gtest-spi.h"
#include "gtest/gtest.h"
#include "rill/core/status.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/core/tf_compat.h"

namespace rill {
namespace {

Status Fails() { return errors::OutOfRange("end of sequence at ", 3); }
StatusOr<int> Seven() { return 7; }

Status UsesTheMacros(int* out) {
  TF_ASSIGN_OR_RETURN(*out, Seven());
  TF_RETURN_IF_ERROR(OkStatus());
  TF_RETURN_IF_ERROR(Fails());
  *out = -1;  // not reached
  return OkStatus();
}

TEST(TfCompat, StatusNamesAndMacros) {
  int v = 0;
  Status s = UsesTheMacros(&v);
  EXPECT_EQ(v, 7);
  EXPECT_TRUE(errors::IsOutOfRange(s));
  EXPECT_FALSE(errors::IsNotFound(s));
  EXPECT_EQ(s.message(), "end of sequence at 3");
  EXPECT_TRUE(errors::IsCancelled(errors::Cancelled("x")));
  EXPECT_TRUE(errors::IsUnavailable(errors::Unavailable("x")));
  EXPECT_TRUE(errors::IsDeadlineExceeded(errors::DeadlineExceeded("x")));
  EXPECT_TRUE(errors::IsPermissionDenied(errors::PermissionDenied("x")));
  EXPECT_TRUE(errors::IsUnauthenticated(errors::Unauthenticated("x")));
  EXPECT_TRUE(errors::IsAborted(errors::Aborted("x")));
  EXPECT_TRUE(errors::IsUnknown(errors::Unknown("x")));
  TF_EXPECT_OK(OkStatus());
  TF_ASSERT_OK(Seven());
  EXPECT_NONFATAL_FAILURE(TF_EXPECT_OK(Fails()), "end of sequence at 3");
  TF_CHECK_OK(OkStatus());
}

TEST(TfCompatDeathTest, CheckOkAbortsWithTheStatus) {
  EXPECT_DEATH(TF_CHECK_OK(Fails()), "TF_CHECK_OK\\(Fails\\(\\)\\) failed: OUT_OF_RANGE: end of");
}

TEST(TensorTestUtil, AsTensorAndComparisons) {
  Tensor x = test::AsTensor<float>({1, 2, 3, 4}, {2, 2});
  EXPECT_EQ(x.shape(), TensorShape({2, 2}));
  EXPECT_EQ(x.matrix<float>()(1, 0), 3.f);
  Tensor v = test::AsTensor<int64_t>({5, 6});
  EXPECT_EQ(v.shape(), TensorShape({2}));
  Tensor y(DT_FLOAT, TensorShape({2, 2}));
  test::FillValues<float>(&y, {1, 2, 3, 4.000001f});
  test::ExpectTensorNear<float>(x, y, 1e-5);
  EXPECT_NONFATAL_FAILURE(test::ExpectTensorEqual<float>(x, y), "element 3");
  test::ExpectClose(x, y);
  Tensor iota(DT_INT32, TensorShape({3}));
  test::FillIota<int32_t>(&iota, 10);
  test::ExpectTensorEqual<int32_t>(iota, test::AsTensor<int32_t>({10, 11, 12}));
  test::ExpectEqual(test::AsScalar<bool>(true), Tensor(true));
  // NaNs compare equal to NaNs, infinities to themselves.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  test::ExpectTensorEqual<float>(test::AsTensor<float>({nan, inf}),
                                 test::AsTensor<float>({nan, inf}));
  EXPECT_NONFATAL_FAILURE(test::ExpectEqual(x, v), "dtypes differ: float vs int64");
  EXPECT_NONFATAL_FAILURE(test::ExpectEqual(x, test::AsTensor<float>({1, 2, 3, 4})),
                          "shapes differ: [2,2] vs [4]");
  EXPECT_NONFATAL_FAILURE(test::AsTensor<float>({1, 2, 3}, {2, 2}), "3 values for shape [2,2]");
}

}  // namespace
}  // namespace rill
