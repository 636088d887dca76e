// Bitcast (tf.bitcast): bytes kept, shapes by TensorFlow's rule each way, and a last dim
// that does not fit refused when the node is built and when it runs.
#include <cstring>

#include "absl/strings/match.h"
#include "rill/core/testing/status_test_util.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace bitcast_test {

MarkTested tested({"Bitcast"});

TEST(Bitcast, KeepsTheBytesAndFollowsTheSizes) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_FLOAT);
  auto as_int = ops::Bitcast(root, x, DT_INT32);       // same size: [2, 2]
  auto as_bytes = ops::Bitcast(root, x, DT_UINT8);     // smaller: [2, 2, 4]
  auto as_double = ops::Bitcast(root, x, DT_DOUBLE);   // larger: [2]
  auto back = ops::Bitcast(root, as_bytes, DT_FLOAT);  // [2, 2] again
  Session session(root);
  std::vector<Tensor> got;
  const std::vector<float> v = {1.f, -2.f, 0.5f, 3e38f};
  RILL_ASSERT_OK(
      session.Run({{x, {{v[0], v[1]}, {v[2], v[3]}}}}, {as_int, as_bytes, as_double, back}, &got));
  EXPECT_EQ(got[0].shape(), TensorShape({2, 2}));
  EXPECT_EQ(got[1].shape(), TensorShape({2, 2, 4}));
  EXPECT_EQ(got[2].shape(), TensorShape({2}));
  EXPECT_EQ(got[3].shape(), TensorShape({2, 2}));
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(std::memcmp(got[k].data(), v.data(), sizeof(float) * v.size()), 0) << k;
  }
  int32_t bits;
  std::memcpy(&bits, &v[0], sizeof(bits));
  EXPECT_EQ(got[0].flat<int32_t>()(0), bits);
  EXPECT_EQ(ToDoubles(got[3]), std::vector<double>(v.begin(), v.end()));
}

TEST(Bitcast, ALastDimThatDoesNotFitIsRefused) {
  Scope root = Scope::NewRootScope();
  ops::Bitcast(root, ops::Const(root, {{1, 2, 3}}), DT_INT64);
  EXPECT_EQ(root.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(root.status().message(), "its last dim must be 2"))
      << root.status();
  Scope r2 = Scope::NewRootScope();
  auto x = ops::Placeholder(r2, DT_UINT8);
  auto y = ops::Bitcast(r2, x, DT_FLOAT);
  EXPECT_EQ(y.output.shape(), PartialTensorShape());
  Session session(r2);
  std::vector<Tensor> got;
  absl::Status st = session.Run({{x, Tensor(DT_UINT8, TensorShape({3}))}}, {y}, &got);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "uint8 [3] to float")) << st;
  st = session.Run({{x, Tensor(DT_UINT8, TensorShape({}))}}, {y}, &got);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
}

}  // namespace bitcast_test
}  // namespace
}  // namespace rill::testing
