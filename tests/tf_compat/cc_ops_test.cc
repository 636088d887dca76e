// The cases of TensorFlow's tensorflow/cc/framework/cc_ops_test.cc, rewritten against rill
// (inputs and expected values are TensorFlow's; the code is ours). Lines that differ from
// TensorFlow's API are marked "rill:" and listed in docs/guide.md "Porting from
// TensorFlow". Left out: ThrowAwayOp (TensorFlow's test-only ops), KernelLabel (rill has
// one kernel per op and device, so no labels), InvalidFinalize (a string reader op).
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/testutil.h"

namespace rill {
namespace ops {
namespace {
namespace cc_ops_test {

Output Linear(const Scope& scope, Input x, Input w, Input b) {
  auto cop_scopes = scope.GetCompositeOpScopes("linear");
  auto m = MatMul(cop_scopes.child, x, w);
  return BiasAdd(cop_scopes.last, m, b);
}

TEST(CCOpTest, Basic) {
  Scope root = Scope::NewRootScope();
  auto c = Const(root, {{1, 1}});
  MatMul m(root, c, {{41}, {1}});  // the one-class-per-op style
  TF_EXPECT_OK(root.status());
  Tensor out;
  test::GetTensor(root, m, &out);
  test::ExpectTensorEqual<int>(out, test::AsTensor<int>({42}, {1, 1}));
}

TEST(CCOpTest, Attrs) {
  Scope root = Scope::NewRootScope();
  auto m = MatMul(root, {{1}, {1}}, {{41}, {1}}, MatMul::TransposeA(true));
  TF_EXPECT_OK(root.status());
  Tensor out;
  test::GetTensor(root, m, &out);
  test::ExpectTensorEqual<int>(out, test::AsTensor<int>({42}, {1, 1}));
}

TEST(CCOpTest, SplitConcat) {
  Scope root = Scope::NewRootScope();
  Split p(root, 0, {{1}, {2}}, 2);
  auto c = Concat(root, {p[0], p[1]}, 0);
  TF_EXPECT_OK(root.status());
  Tensor out;
  test::GetTensor(root, c, &out);
  test::ExpectTensorEqual<int>(out, test::AsTensor<int>({1, 2}, {2, 1}));
}

TEST(CCOpTest, CompositeOp) {
  Scope root = Scope::NewRootScope();
  auto l =
      Linear(root.WithOpName("layer0"), {{10.0f, -3.0f}}, {{.8f, .5f}, {.1f, .6f}}, {-8.0f, 31.0f});
  TF_EXPECT_OK(root.status());
  EXPECT_EQ(l.node()->name(), "layer0");
  Tensor out;
  test::GetTensor(root, l, &out);
  test::ExpectClose(out, test::AsTensor<float>({-0.3f, 34.2f}, {1, 2}));
}

TEST(CCOpTest, MultiOutput) {
  Scope root = Scope::NewRootScope();
  auto u = Unique(root, {1, 2, 2, 4, 3, 2});
  std::vector<Tensor> outputs;
  test::GetTensors(root, {u.y, u.idx}, &outputs);
  test::ExpectTensorEqual<int>(outputs[0], test::AsTensor<int>({1, 2, 4, 3}));
  test::ExpectTensorEqual<int>(outputs[1], test::AsTensor<int>({0, 1, 1, 2, 3, 1}));
}

TEST(CCOpTest, ExampleTrainer) {
  Scope root = Scope::NewRootScope();
  auto a = Const(root, {{3.f, 2.f}, {-1.f, 0.f}});
  auto x = Const(root.WithOpName("x"), {{1.f}, {1.f}});
  auto y = MatMul(root.WithOpName("y"), a, x);
  auto y2 = Square(root, y);
  auto y2_sum = Sum(root, y2, 0);
  auto y_norm = Sqrt(root, y2_sum);
  auto y_normalized = Div(root.WithOpName("y_normalized"), y, y_norm);
  Tensor out;
  test::GetTensor(root, y_normalized, &out);
  test::ExpectTensorNear<float>(out, test::AsTensor<float>({0.98058069f, -0.19611613f}, {2, 1}),
                                1e-5);
}

TEST(CCOpTest, ControlDeps) {
  Scope root = Scope::NewRootScope();
  auto v = Variable(root, {}, DT_FLOAT);
  auto assign = Assign(root, v, 41.0f);
  Scope with_control_deps = root.WithControlDependencies(assign);
  auto add = Add(with_control_deps, v, 1.0f);
  Scope no_control_deps = with_control_deps.WithNoControlDependencies();
  auto sub = Sub(no_control_deps, 3.0f, 2.0f);
  auto is_inited = IsVariableInitialized(no_control_deps.WithControlDependencies(sub), v);
  TF_EXPECT_OK(root.status());

  std::vector<Tensor> out;
  test::GetTensors(root, {add}, &out);
  test::ExpectTensorNear<float>(out[0], test::AsTensor<float>({42.0f}, {}), 1e-5);
  out.clear();
  // A new session: v is uninitialized, and sub's dependencies do not run the assign.
  test::GetTensors(root, {sub, is_inited}, &out);
  test::ExpectTensorNear<float>(out[0], test::AsTensor<float>({1.0f}, {}), 1e-5);
  test::ExpectTensorEqual<bool>(out[1], test::AsTensor<bool>({false}, {}));
}

// rill: TensorFlow reads colocation from the "_class" attr ("loc:@c1" per constraint); a
// rill node keeps one node to share a device with (Node::colocate_with), the root of the
// chain. TensorFlow's c5 (colocated with c3 and with c4) has two constraints; in rill the
// later ColocateWith wins, so its expectation is c4's root alone.
TEST(CCOpTest, ColocateWith) {
  Scope root = Scope::NewRootScope();
  auto c1 = Const(root.WithOpName("c1"), 1);
  auto c2 = Const(root.WithOpName("c2").ColocateWith(c1), 2);
  EXPECT_EQ(c2.node()->colocate_with(), "c1");
  auto c3 = Const(root.WithOpName("c3").ColocateWith(c2), 3);
  EXPECT_EQ(c3.node()->colocate_with(), "c1");
  auto a = Const(root.WithOpName("a"), 4);
  auto c4 = Const(root.WithOpName("c4").ColocateWith(a), 5);
  EXPECT_EQ(c4.node()->colocate_with(), "a");
  auto c5 = Const(root.WithOpName("c5").ColocateWith(c3).ColocateWith(c4), 6);
  EXPECT_EQ(c5.node()->colocate_with(), "a");  // rill: TensorFlow's also keeps "c1"
  Scope with_colocate = root.ColocateWith(c3).ColocateWith(c4);
  auto c6 = Const(with_colocate.WithOpName("c6").ClearColocation(), 7);
  EXPECT_TRUE(c6.node()->colocate_with().empty());
  TF_EXPECT_OK(root.status());
}

TEST(CCOpTest, TemplatedConst) {
  Scope root = Scope::NewRootScope();
  auto c1 = Const<float>(root, {{3, 2}, {-1, 0}});
  TF_EXPECT_OK(root.status());
  Tensor out;
  test::GetTensor(root, c1, &out);
  test::ExpectTensorEqual<float>(out, test::AsTensor<float>({3.f, 2.f, -1.f, 0.f}, {2, 2}));
  // rill: TensorFlow's second constant is Const<tstring>; no string dtype here.
}

TEST(CCOpTest, EmptyConst) {
  Scope root = Scope::NewRootScope();
  Tensor out;
  auto c1 = Const(root, {});
  TF_ASSERT_OK(root.status());
  test::GetTensor(root, c1, &out);
  test::ExpectTensorEqual<float>(out, Tensor(DT_FLOAT, {0}));
  auto c2 = Const(root, {{}});
  TF_ASSERT_OK(root.status());
  test::GetTensor(root, c2, &out);
  test::ExpectTensorEqual<float>(out, Tensor(DT_FLOAT, {1, 0}));
  auto c3 = Const(root, {{{}, {}}});
  TF_ASSERT_OK(root.status());
  test::GetTensor(root, c3, &out);
  test::ExpectTensorEqual<float>(out, Tensor(DT_FLOAT, {1, 2, 0}));
  auto c4 = Const<int>(root, {{{}}});
  TF_ASSERT_OK(root.status());
  test::GetTensor(root, c4, &out);
  test::ExpectTensorEqual<int>(out, Tensor(DT_INT32, {1, 1, 0}));
  Const(root, {{}, {{}}});
  EXPECT_FALSE(root.status().ok());
}

}  // namespace cc_ops_test
}  // namespace
}  // namespace ops
}  // namespace rill
