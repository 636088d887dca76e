// TensorFlow's spellings of statuses and test helpers (core/status.h, core/tf_compat.h,
// core/testing/): each behaves as TensorFlow documents it.
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest-spi.h"
#include "gtest/gtest.h"
#include "rill/core/status.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/core/tf_compat.h"

namespace rill {
namespace {
namespace compat_test {

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

TEST(TfCompat, PlatformNamesAndErrorCodes) {
  static_assert(std::is_same_v<int32, std::int32_t> && std::is_same_v<int64, std::int64_t>);
  static_assert(std::is_same_v<uint8, std::uint8_t> && std::is_same_v<string, std::string>);
  static_assert(DataTypeToEnum<float>::v() == DT_FLOAT);
  static_assert(DataTypeToEnum<complex64>::v() == DT_COMPLEX64);
  const std::vector<int> values = {1, 2, 3};
  gtl::ArraySlice<int> slice = values;
  EXPECT_EQ(slice.size(), 3u);
  StringPiece piece = "--steps=12";
  EXPECT_FALSE(piece.Consume("--epochs"));
  EXPECT_TRUE(piece.Consume("--steps"));
  EXPECT_TRUE(piece.Consume("="));
  EXPECT_EQ(piece, "12");
  const StringPiece message = "input must be 1-D or higher";
  EXPECT_TRUE(message.contains("1-D"));
  EXPECT_FALSE(message.contains("2-D"));
  EXPECT_TRUE(message.starts_with("input"));
  EXPECT_TRUE(message.ends_with("higher"));
  EXPECT_FALSE(message.ends_with("input"));
  EXPECT_EQ(strings::Printf("%s=%d (%.1f)", "x", 12, 0.5), "x=12 (0.5)");
  EXPECT_EQ(strings::Printf("%s", ""), "");
  Status s = errors::InvalidArgument("x");
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(errors::NotFound("y").code(), error::NOT_FOUND);
  EXPECT_EQ(OkStatus().code(), error::OK);
  // random::New64 draws: twenty draws are not all one value.
  std::set<uint64> draws;
  for (int i = 0; i < 20; ++i) draws.insert(random::New64());
  EXPECT_GT(draws.size(), 1u);
}

TEST(TfCompat, ChecksPassQuietly) {
  int x = 3;
  CHECK(x == 3) << "not printed";
  CHECK_EQ(std::vector<int>(3).size(), 3);  // size_t against int: compared by value
  CHECK_NE(x, 4);
  CHECK_LT(-1, 1u);  // -1 is less than 1u by value (not as 0xffffffff)
  CHECK_GT(x, 2);
  CHECK_LE(x, 3);
  CHECK_GE(x, 3);
  int* p = &x;
  EXPECT_EQ(CHECK_NOTNULL(p), &x);
  DCHECK(x == 3);
  DCHECK_EQ(x, 3);
}

TEST(TfCompatDeathTest, FailedChecksAbortNamingTheCheck) {
  int x = 3;
  EXPECT_DEATH(CHECK(x == 4) << "why: " << x, "Check failed: x == 4 why: 3");
  EXPECT_DEATH(CHECK_EQ(x, 4), "Check failed: .*\\(3 vs. 4\\)");
  EXPECT_DEATH(CHECK_LT(1u, -1), "Check failed");
  int* null = nullptr;
  EXPECT_DEATH(CHECK_NOTNULL(null), "'null' Must be non NULL");
  EXPECT_DEATH(LOG(FATAL) << "fatal " << 7, "F .*compat_test.cc:[0-9]+\\] fatal 7");
}

TEST(TfCompat, LogPrintsSeverityFileAndMessage) {
  ::testing::internal::CaptureStderr();
  LOG(INFO) << "step " << 3;
  LOG(WARNING) << "slow";
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("I "), std::string::npos) << err;
  EXPECT_NE(err.find("compat_test.cc"), std::string::npos) << err;
  EXPECT_NE(err.find("] step 3\n"), std::string::npos) << err;
  EXPECT_NE(err.find("W "), std::string::npos) << err;
}

TEST(TensorTestUtil, FillFn) {
  Tensor t(DT_FLOAT, TensorShape({2, 2}));
  test::FillFn<float>(&t, [](int i) { return 0.5f * static_cast<float>(i); });
  test::ExpectTensorEqual<float>(t, test::AsTensor<float>({0, 0.5f, 1, 1.5f}, {2, 2}));
}

// complex64 tensors live on the host: made, filled, printed and compared; no op takes them
// (ops/const_op tests and bad-input cases check that).
TEST(TensorTestUtil, Complex64HostTensors) {
  Tensor c(DT_COMPLEX64, TensorShape({2}));
  ASSERT_TRUE(c.IsInitialized());
  EXPECT_EQ(c.TotalBytes(), 16u);
  c.flat<complex64>()(0) = complex64(1, -2);
  c.flat<complex64>()(1) = complex64(0.5f, 3);
  EXPECT_EQ(c.DebugString(), "Tensor<type: complex64 shape: [2] values: (1,-2) (0.5,3)>");
  EXPECT_EQ(Tensor(complex64(2, 1)).dtype(), DT_COMPLEX64);
  test::ExpectTensorEqual<complex64>(c, test::AsTensor<complex64>({{1, -2}, {0.5f, 3}}));
  test::ExpectClose(c, test::AsTensor<complex64>({{1, -2}, {0.5f, 3.000001f}}));
  EXPECT_NONFATAL_FAILURE(test::ExpectEqual(c, test::AsTensor<complex64>({{1, -2}, {0.5f, 4}})),
                          "element 1");
  EXPECT_EQ(DataTypeString(DT_COMPLEX64), "complex64");
  EXPECT_EQ(DataTypeFromString("complex64"), DT_COMPLEX64);
  EXPECT_FALSE(DataTypeIsFloating(DT_COMPLEX64));
  // A comparison of tensors with no element type fails instead of comparing nothing.
  EXPECT_NONFATAL_FAILURE(
      test::ExpectEqual(Tensor(DT_INVALID, TensorShape({1})), Tensor(DT_INVALID, TensorShape({1}))),
      "cannot compare tensors of dtype");
}

}  // namespace compat_test
}  // namespace
}  // namespace rill
