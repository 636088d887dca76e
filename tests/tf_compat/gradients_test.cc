// The cases of TensorFlow's tensorflow/cc/framework/gradients_test.cc, rewritten against
// rill (inputs and expected values are TensorFlow's; the code is ours). The first seven
// build each backward graph by hand in one scope and with AddSymbolicGradients in another
// and compare the two GraphDefs node for node, as TensorFlow's do.
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/testutil.h"

namespace rill {
namespace {
namespace gradients_test {

using ops::Assign;
using ops::Const;
using ops::Identity;
using ops::MatMul;
using ops::OnesLike;
using ops::Placeholder;
using ops::Square;
using ops::Stack;
using ops::StopGradient;
using ops::Unstack;
using ops::Variable;

// Runs `build(scope, expected)` on a scope that builds the gradients by hand and on one
// that asks AddSymbolicGradients for them, then compares the two graphs.
class GradientGraphTest : public ::testing::Test {
 protected:
  template <typename Build>
  void Compare(Build build) {
    Scope expected_scope = Scope::NewRootScope();
    Scope test_scope = Scope::NewRootScope();
    build(test_scope, false);
    build(expected_scope, true);
    GraphDef expected, test;
    TF_ASSERT_OK(expected_scope.ToGraphDef(&expected));
    TF_ASSERT_OK(test_scope.ToGraphDef(&test));
    TF_EXPECT_GRAPH_EQ(expected, test);
  }
};

TEST_F(GradientGraphTest, OneMatMul) {
  Compare([](const Scope& scope, bool expected) {
    auto x = Const(scope, {{1.0, 2.0}, {3.0, 4.0}});
    auto y = Const(scope, {{1.0, 0.0}, {0.0, 1.0}});
    auto z = MatMul(scope, x, y);
    TF_ASSERT_OK(scope.status());
    auto dz = Const(scope, {{1.0, 1.0}, {1.0, 1.0}});
    if (expected) {
      MatMul(scope, dz, y, MatMul::TransposeB(true));
      MatMul(scope, x, dz, MatMul::TransposeA(true));
    } else {
      std::vector<Output> grads;
      TF_ASSERT_OK(AddSymbolicGradients(scope, {z}, {x, y}, {dz}, &grads));
    }
  });
}

TEST_F(GradientGraphTest, OneMatMul_InferGradInputs) {
  Compare([](const Scope& scope, bool expected) {
    auto x = Const(scope, {{1.0, 2.0}, {3.0, 4.0}});
    auto y = Const(scope, {{1.0, 0.0}, {0.0, 1.0}});
    auto z = MatMul(scope, x, y);
    if (expected) {
      auto dz = OnesLike(scope, z);  // what AddSymbolicGradients seeds when given no dz
      MatMul(scope, dz, y, MatMul::TransposeB(true));
      MatMul(scope, x, dz, MatMul::TransposeA(true));
    } else {
      std::vector<Output> grads;
      TF_ASSERT_OK(AddSymbolicGradients(scope, {z}, {x, y}, &grads));
    }
  });
}

TEST_F(GradientGraphTest, TwoMatMuls_Chained) {
  Compare([](const Scope& scope, bool expected) {
    auto u = Const(scope, {{1.0, 2.0}, {3.0, 4.0}});
    auto v = Const(scope, {{1.0, 0.0}, {0.0, 1.0}});
    auto x = MatMul(scope, u, v);
    auto y = Const(scope, {{1.0, 0.0}, {0.0, 1.0}});
    auto z = MatMul(scope, x, y);
    auto dz = Const(scope, {{1.0, 1.0}, {1.0, 1.0}});
    if (expected) {
      auto dx = MatMul(scope, dz, y, MatMul::TransposeB(true));
      MatMul(scope, x, dz, MatMul::TransposeA(true));  // dy, asked for or not
      MatMul(scope, dx, v, MatMul::TransposeB(true));
      MatMul(scope, u, dx, MatMul::TransposeA(true));
    } else {
      std::vector<Output> grads;
      TF_ASSERT_OK(AddSymbolicGradients(scope, {z}, {u, v}, {dz}, &grads));
    }
  });
}

TEST_F(GradientGraphTest, TwoMatMuls_Independent) {
  Compare([](const Scope& scope, bool expected) {
    auto t = Const(scope, {{1.0, 2.0}, {3.0, 4.0}});
    auto u = Const(scope, {{1.0, 0.0}, {0.0, 1.0}});
    auto v = MatMul(scope, t, u);
    auto x = Const(scope, {{5.0, 6.0}, {7.0, 8.0}});
    auto y = Const(scope, {{1.0, 0.0}, {0.0, 1.0}});
    auto z = MatMul(scope, x, y);
    auto dv = Const(scope, {{1.0, 1.0}, {1.0, 1.0}});
    if (expected) {
      MatMul(scope, dv, u, MatMul::TransposeB(true));
      MatMul(scope, t, dv, MatMul::TransposeA(true));
      auto dz = Const(scope, {{1.0, 1.0}, {1.0, 1.0}});
      MatMul(scope, dz, y, MatMul::TransposeB(true));
      MatMul(scope, x, dz, MatMul::TransposeA(true));
    } else {
      auto dz = Const(scope, {{1.0, 1.0}, {1.0, 1.0}});
      std::vector<Output> grads;
      TF_ASSERT_OK(AddSymbolicGradients(scope, {v, z}, {t, u, x, y}, {dv, dz}, &grads));
    }
  });
}

// a, b, c stacked and unstacked; dx, dy, dz the unstacked pieces' gradients.
struct StackUnstack {
  explicit StackUnstack(const Scope& scope)
      : a(Const(scope, 1, {4, 2})),
        b(Const(scope, 2, {4, 2})),
        c(Const(scope, 3, {4, 2})),
        pack(scope, {a, b, c}),
        unpack(scope, pack.output, 3),
        dx(Const(scope, 4, {4, 2})),
        dy(Const(scope, 5, {4, 2})),
        dz(Const(scope, 6, {4, 2})) {}
  Output a, b, c;
  Stack pack;
  Unstack unpack;
  Output dx, dy, dz;
};

TEST_F(GradientGraphTest, StackUnstack_Chained) {
  Compare([](const Scope& scope, bool expected) {
    StackUnstack g(scope);
    if (expected) {
      auto unpack_grad = Stack(scope, {g.dx, g.dy, g.dz});
      Unstack(scope, unpack_grad.output, 3);
    } else {
      std::vector<Output> grads;
      TF_ASSERT_OK(AddSymbolicGradients(scope, g.unpack.output, {g.a, g.b, g.c}, {g.dx, g.dy, g.dz},
                                        &grads));
    }
  });
}

TEST_F(GradientGraphTest, StackUnstack_StopBackprop) {
  // Only the gradient with respect to Stack's output is asked for: Stack's own gradient
  // function is not called.
  Compare([](const Scope& scope, bool expected) {
    StackUnstack g(scope);
    if (expected) {
      Stack(scope, {g.dx, g.dy, g.dz});
    } else {
      std::vector<Output> grads;
      TF_ASSERT_OK(
          AddSymbolicGradients(scope, g.unpack.output, {g.pack}, {g.dx, g.dy, g.dz}, &grads));
    }
  });
}

TEST_F(GradientGraphTest, StackUnstack_SubsetOfUnstackOutputs) {
  Compare([](const Scope& scope, bool expected) {
    auto c = Const(scope, 1, {3, 4, 2});
    auto unpack = Unstack(scope, c, 3);
    Identity(scope, unpack.output[0]);
    auto y = Identity(scope, unpack.output[1]);
    auto z = Identity(scope, unpack.output[2]);
    auto dy = Const(scope, 4, {4, 2});
    auto dz = Const(scope, 5, {4, 2});
    if (expected) {
      Identity(scope, dy);
      Identity(scope, dz);
    } else {
      std::vector<Output> grads;
      TF_ASSERT_OK(AddSymbolicGradients(scope, {y, z}, {unpack.output[1], unpack.output[2]},
                                        {dy, dz}, &grads));
      ASSERT_EQ(grads.size(), 2u);
      EXPECT_TRUE(grads[0].node() != nullptr);
      EXPECT_TRUE(grads[1].node() != nullptr);
    }
  });
}

TEST(GradientsTest, DependentGradOutputs) {
  Scope scope = Scope::NewRootScope();
  auto u = Const(scope, {{2}});
  auto v = Const(scope, {{3}});
  auto x = MatMul(scope, u, v);
  auto y = Const(scope, {{4}});
  auto z = MatMul(scope, x, y);
  auto dz = Const(scope, {{5}});
  std::vector<Output> grads;
  TF_ASSERT_OK(AddSymbolicGradients(scope, {z}, {v, x}, {dz}, &grads));
  std::vector<Tensor> outputs;
  test::GetTensors(scope, {grads[0], grads[1]}, &outputs);
  // dx = 5 * y = 20; dv = dx * u = 40.
  test::ExpectTensorEqual<int>(outputs[0], test::AsTensor<int>({40}, {1, 1}));
  test::ExpectTensorEqual<int>(outputs[1], test::AsTensor<int>({20}, {1, 1}));
}

TEST(GradientsTest, MultipleNodeOutputGrads) {
  Scope scope = Scope::NewRootScope();
  auto x = Const(scope, 1, {3, 4, 2});
  auto unpack = Unstack(scope, x, 3);
  auto pack = Stack(scope, unpack.output);
  auto dx = Const(scope, {40, 41, 42, 43, 44, 45, 46, 47, 50, 51, 52, 53,
                          55, 55, 56, 57, 60, 61, 62, 63, 66, 66, 66, 67},
                  {3, 4, 2});
  std::vector<Output> grads;
  TF_ASSERT_OK(AddSymbolicGradients(scope, {pack}, unpack.output, {dx}, &grads));
  std::vector<Tensor> outputs;
  test::GetTensors(scope, {grads[0], grads[1], grads[2]}, &outputs);
  test::ExpectTensorEqual<int>(outputs[0],
                               test::AsTensor<int>({40, 41, 42, 43, 44, 45, 46, 47}, {4, 2}));
  test::ExpectTensorEqual<int>(outputs[1],
                               test::AsTensor<int>({50, 51, 52, 53, 55, 55, 56, 57}, {4, 2}));
  test::ExpectTensorEqual<int>(outputs[2],
                               test::AsTensor<int>({60, 61, 62, 63, 66, 66, 66, 67}, {4, 2}));
}

TEST(GradientsTest, UnreachableEdgeGradOneOutput) {
  Scope scope = Scope::NewRootScope();
  auto x = Variable(scope, {2, 3}, DT_DOUBLE);
  auto x_assign = Assign(scope, x, Const(scope, {{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}));
  auto y = Variable(scope, {3, 1}, DT_DOUBLE);
  auto y_assign = Assign(scope, y, Const(scope, {{1.0}, {2.0}, {3.0}}));
  auto m = MatMul(scope, x, y);
  auto z = Variable(scope, {1, 3}, DT_DOUBLE);
  auto z_assign = Assign(scope, z, Const(scope, {{9.0, 10.0, 11.0}}));
  auto diff_m = Const(scope, {{0.5}, {0.5}});
  std::vector<Output> grads;
  TF_ASSERT_OK(AddSymbolicGradients(scope, {m}, {y}, {diff_m}, &grads));
  std::vector<Tensor> outputs;
  test::GetTensors(scope, {x_assign, y_assign, z_assign}, {grads[0]}, &outputs);
  test::ExpectTensorNear<double>(outputs[0], test::AsTensor<double>({2.5, 3.5, 4.5}, {3, 1}), 1e-5);
}

TEST(GradientsTest, UnreachableEdgeGradTwoOutputs) {
  Scope scope = Scope::NewRootScope();
  auto x = Variable(scope, {2, 3}, DT_DOUBLE);
  auto x_assign = Assign(scope, x, Const(scope, {{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}));
  auto y = Variable(scope, {3, 1}, DT_DOUBLE);
  auto y_assign = Assign(scope, y, Const(scope, {{1.0}, {2.0}, {3.0}}));
  auto m1 = MatMul(scope, x, y);
  auto z = Variable(scope, {1, 3}, DT_DOUBLE);
  auto z_assign = Assign(scope, z, Const(scope, {{9.0, 10.0, 11.0}}));
  auto m2 = MatMul(scope, y, z);
  auto dm1 = Const(scope, {{0.5}, {0.5}});
  auto dm2 = Const(scope, {{0.5, 0.5, 0.5}, {0.6, 0.7, 0.8}, {0.6, 0.7, 0.9}});
  std::vector<Output> grads;
  TF_ASSERT_OK(AddSymbolicGradients(scope, {m1, m2}, {y}, {dm1, dm2}, &grads));
  std::vector<Tensor> outputs;
  test::GetTensors(scope, {x_assign, y_assign, z_assign}, {grads[0]}, &outputs);
  // xT * dm1 + dm2 * zT
  test::ExpectTensorNear<double>(outputs[0], test::AsTensor<double>({17.5, 24.7, 26.8}, {3, 1}),
                                 1e-5);
}

TEST(GradientsTest, UnreachableInput) {
  Scope scope = Scope::NewRootScope();
  auto x = Const(scope, {{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}});
  auto y = Const(scope, {{1.0}, {2.0}, {3.0}});
  auto z = Const(scope.WithOpName("z"), {{9.0, 10.0, 11.0}});
  auto m1 = MatMul(scope, x, y);
  MatMul(scope, y, z);  // m2: z reaches it, not m1
  auto dm1 = Const(scope, {{0.5}, {0.5}});
  std::vector<Output> grads;
  Status status = AddSymbolicGradients(scope, {m1}, {z}, {dm1}, &grads);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(),
            "Cannot compute the partial derivative for node 'z' as it's unreachable from the "
            "output node(s).");
}

TEST(GradientsTest, DependentOutputs) {
  Scope scope = Scope::NewRootScope();
  auto x = Placeholder(scope, DT_FLOAT);
  auto y0 = Square(scope, x);
  auto y1 = Square(scope, y0);
  auto y2 = Square(scope, y1);
  std::vector<Output> grads;
  TF_EXPECT_OK(AddSymbolicGradients(scope, {y0, y2}, {x}, &grads));
  ClientSession session(scope);
  std::vector<Tensor> result;
  TF_EXPECT_OK(session.Run({{x, {3.0f}}}, grads, &result));
  ASSERT_EQ(result.size(), 1u);
  EXPECT_EQ(result[0].NumElements(), 1);
  EXPECT_EQ(result[0].flat<float>()(0), 17502.0f);
}

TEST(GradientsTest, MultiOutputNodeDependentOutputs) {
  Scope scope = Scope::NewRootScope();
  auto x = Placeholder(scope, DT_FLOAT);
  auto y0 = Square(scope, x);
  auto y1 = Square(scope, y0);
  auto y2 = Square(scope, y0);
  auto y3 = Square(scope, y2);
  std::vector<Output> grads;
  TF_EXPECT_OK(AddSymbolicGradients(scope, {y0, y1, y3}, {x}, &grads));
  ClientSession session(scope);
  std::vector<Tensor> result;
  TF_EXPECT_OK(session.Run({{x, {3.0f}}}, grads, &result));
  ASSERT_EQ(result.size(), 1u);
  EXPECT_EQ(result[0].flat<float>()(0), 17610.0f);
}

// Three edges out of one output, StopGradient on the chosen ones.
void CheckSingleOutputMultiEdge(const std::vector<bool>& stop, const Tensor& expected) {
  SCOPED_TRACE(::testing::Message() << "stopped " << stop[0] << stop[1] << stop[2]);
  Scope scope = Scope::NewRootScope();
  auto x = Const(scope, {{1, 0}, {0, 1}});
  auto y = Const(scope, {{1, 0}, {0, 1}});
  auto z = MatMul(scope, x, y);
  std::vector<Output> outs;
  for (bool s : stop) {
    outs.push_back(s ? StopGradient(scope, Identity(scope, z)).output : Identity(scope, z).output);
  }
  auto g0 = Const(scope, {{1, 2}, {3, 4}});
  auto g1 = Const(scope, {{5, 6}, {7, 8}});
  auto g2 = Const(scope, {{9, 10}, {11, 12}});
  std::vector<Output> grads;
  TF_EXPECT_OK(AddSymbolicGradients(scope, outs, {z}, {g0, g1, g2}, &grads));
  if (expected.NumElements() > 0) {
    Tensor output;
    test::GetTensor(scope, grads[0], &output);
    test::ExpectTensorEqual<int>(output, expected);
  } else {
    EXPECT_EQ(NoGradient(), grads[0]);
  }
}

TEST(StopGradientSingleOutputMultiEdgeTest, EveryCombination) {
  CheckSingleOutputMultiEdge({false, false, false}, test::AsTensor<int>({15, 18, 21, 24}, {2, 2}));
  CheckSingleOutputMultiEdge({true, false, false}, test::AsTensor<int>({14, 16, 18, 20}, {2, 2}));
  CheckSingleOutputMultiEdge({false, true, false}, test::AsTensor<int>({10, 12, 14, 16}, {2, 2}));
  CheckSingleOutputMultiEdge({false, false, true}, test::AsTensor<int>({6, 8, 10, 12}, {2, 2}));
  CheckSingleOutputMultiEdge({true, true, false}, test::AsTensor<int>({9, 10, 11, 12}, {2, 2}));
  CheckSingleOutputMultiEdge({false, true, true}, test::AsTensor<int>({1, 2, 3, 4}, {2, 2}));
  CheckSingleOutputMultiEdge({true, false, true}, test::AsTensor<int>({5, 6, 7, 8}, {2, 2}));
  CheckSingleOutputMultiEdge({true, true, true}, Tensor());
}

// One node's three outputs, StopGradient on the chosen ones.
void CheckMultiOutput(const std::vector<bool>& stop, const Tensor& expected) {
  SCOPED_TRACE(::testing::Message() << "stopped " << stop[0] << stop[1] << stop[2]);
  Scope scope = Scope::NewRootScope();
  auto x = Const(scope, 1, {3, 2, 4});
  auto y = Unstack(scope, x, 3);
  TF_ASSERT_OK(scope.status());
  std::vector<Output> outs;
  for (int i = 0; i < 3; ++i) {
    outs.push_back(stop[i] ? StopGradient(scope, y.output[i]).output : y.output[i]);
  }
  auto g0 = Const(scope, {1, 2, 3, 4, 5, 6, 7, 8}, {2, 4});
  auto g1 = Const(scope, {9, 10, 11, 12, 13, 14, 15, 16}, {2, 4});
  auto g2 = Const(scope, {17, 18, 19, 20, 21, 22, 23, 24}, {2, 4});
  std::vector<Output> grads;
  TF_EXPECT_OK(AddSymbolicGradients(scope, outs, {x}, {g0, g1, g2}, &grads));
  if (expected.NumElements() > 0) {
    Tensor output;
    test::GetTensor(scope, grads[0], &output);
    test::ExpectTensorEqual<int>(output, expected);
  } else {
    EXPECT_EQ(NoGradient(), grads[0]);
  }
}

// The [3, 2, 4] gradient: block b is g_b (1..24 in order) or zeros where stopped.
Tensor Blocks(const std::vector<bool>& stop) {
  std::vector<int> v(24);
  for (int i = 0; i < 24; ++i) v[i] = stop[i / 8] ? 0 : i + 1;
  return test::AsTensor<int>(absl::MakeConstSpan(v), {3, 2, 4});
}

TEST(StopGradientMultiOutputTest, EveryCombination) {
  for (const std::vector<bool>& stop : std::vector<std::vector<bool>>{{false, false, false},
                                                                      {true, false, false},
                                                                      {false, true, false},
                                                                      {false, false, true},
                                                                      {true, false, true}}) {
    CheckMultiOutput(stop, Blocks(stop));
  }
  CheckMultiOutput({true, true, true}, Tensor());
}

}  // namespace gradients_test
}  // namespace
}  // namespace rill
