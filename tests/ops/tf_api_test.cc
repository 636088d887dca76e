// TensorFlow C++ API details a literal port relies on: an op wrapper in braces where an
// Input is taken, and complex64, which exists for host tensors while no op takes it.
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace tf_api_test {

// TensorFlow's optimizer test writes ApplyGradientDescent(scope, {x}, lr, {dx}) with x a
// Variable and dx a MatMul: `{wrapper}` must pick one Input constructor, not two.
TEST(TfApi, OpWrappersInBracesAreInputs) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Variable(s, {1, 2}, DT_FLOAT);
  auto assign = ops::Assign(s, x, ops::Const(s, {{1.f, 2.f}}));
  auto dx = ops::MatMul(s, ops::Const(s, {{1.f}}), ops::Const(s, {{10.f, 20.f}}));
  auto update = ops::ApplyGradientDescent(s, {x}, 0.5f, {dx});
  TF_ASSERT_OK(s.status());
  Session session(s);
  std::vector<Tensor> out;
  TF_ASSERT_OK(session.Run({}, {}, {assign}, nullptr));
  TF_ASSERT_OK(session.Run({update}, &out));
  test::ExpectTensorEqual<float>(out[0], test::AsTensor<float>({-4, -8}, {1, 2}));
}

void ExpectRefused(const Scope& s, const std::string& op) {
  EXPECT_TRUE(errors::IsInvalidArgument(s.status())) << s.status();
  EXPECT_NE(s.status().message().find("complex64"), std::string::npos) << s.status();
  EXPECT_NE(s.status().message().find(op), std::string::npos) << s.status();
}

TEST(TfApi, NoOpTakesComplex64) {
  {
    Scope s = Scope::NewRootScope();
    ops::Const(s, complex64(1, 2));
    ExpectRefused(s, "Const");
  }
  {
    Scope s = Scope::NewRootScope();
    ops::Abs(s, test::AsTensor<complex64>({{1, 2}, {3, 4}}));
    ExpectRefused(s, "Const");
  }
  {
    Scope s = Scope::NewRootScope();
    ops::Placeholder(s, DT_COMPLEX64);
    ExpectRefused(s, "Placeholder");
  }
  {
    Scope s = Scope::NewRootScope();
    ops::Cast(s, ops::Const(s, 1.f), DT_COMPLEX64);
    ExpectRefused(s, "Cast");
  }
  {
    Scope s = Scope::NewRootScope();
    ops::Variable(s, {2}, DT_COMPLEX64);
    ExpectRefused(s, "Variable");
  }
  {
    Scope s = Scope::NewRootScope();
    ops::Const<float>(s, complex64(1, 0));  // a conversion rill does not make
    ExpectRefused(s, "Const");
  }
}

TEST(TfApi, AComplex64FeedIsRefused) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT);
  auto y = ops::Neg(s, x);
  Session session(s);
  std::vector<Tensor> out;
  absl::Status st = session.Run({{x, test::AsTensor<complex64>({{1, 0}})}}, {y}, &out);
  EXPECT_TRUE(errors::IsInvalidArgument(st)) << st;
  EXPECT_NE(st.message().find("complex64"), std::string::npos) << st;
}

}  // namespace tf_api_test
}  // namespace
}  // namespace rill
