// The unary and MatMul cases of TensorFlow's tensorflow/cc/gradients/math_grad_test.cc
// (the n-ary ones: math_grad_nary_test.cc), rewritten against
// rill (inputs, formulas and error bounds are TensorFlow's; the code is ours).
// rill: left out is every complex64 case (no complex dtype):
// docs/guide.md "Porting from TensorFlow". TensorFlow draws its random inputs from random::New64();
// a seeded std::mt19937 draws them here.
#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/testutil.h"

namespace rill {
using namespace ops;  // NOLINT(build/namespaces)

namespace {
namespace math_grad_test {

class CWiseUnaryGradTest : public ::testing::Test {
 protected:
  CWiseUnaryGradTest() : scope_(Scope::NewRootScope().WithDevice("/cpu:0")) {}

  using Build = std::function<Output(const Scope&, const Output&)>;

  // x [2, 3, 2] from x_fn, dy from dy_fn(x); the op's gradient function against dx_fn.
  void TestCWiseGrad(const Build& op, const std::function<float(int)>& x_fn,
                     const std::function<float(float)>& dy_fn,
                     const std::function<float(float, float)>& dx_fn) {
    Tensor x(DT_FLOAT, {2, 3, 2}), dy(DT_FLOAT, {2, 3, 2}), dx(DT_FLOAT, {2, 3, 2});
    for (int i = 0; i < 12; ++i) {
      x.flat<float>()(i) = x_fn(i);
      dy.flat<float>()(i) = dy_fn(x.flat<float>()(i));
      dx.flat<float>()(i) = dx_fn(x.flat<float>()(i), dy.flat<float>()(i));
    }
    Output y = op(scope_, Const(scope_, x));
    std::vector<Output> grad_outputs;
    TF_ASSERT_OK(
        test::CallGradFunction(scope_, Operation(y.node()), {Const(scope_, dy)}, &grad_outputs));
    Tensor output;
    test::GetTensor(scope_, grad_outputs[0], &output);
    test::ExpectClose(output, dx);
  }

  // The file's later form of the check: x [2, 3, 2] from x_fn, the op's gradient against
  // the numeric Jacobian (TensorFlow's bound for float, 1e-3).
  void TestCWiseGradNumeric(const Build& op, const std::function<float(int)>& x_fn) {
    Tensor x(DT_FLOAT, {2, 3, 2});
    for (int i = 0; i < 12; ++i) x.flat<float>()(i) = x_fn(i);
    auto ph = Placeholder(scope_, DT_FLOAT, Placeholder::Shape({2, 3, 2}));
    float max_error;
    TF_ASSERT_OK((ComputeGradientError<float, float, float>(scope_, ph, x, op(scope_, ph),
                                                            {2, 3, 2}, &max_error)));
    EXPECT_LT(max_error, 1e-3);
  }

  float RV(const std::vector<float>& v) { return v[rng_() % v.size()]; }

  std::mt19937 rng_{301};
  Scope scope_;
};

#define RILL_UNARY(Op) [](const Scope& s, const Output& x) { return Output(Op(s, x)); }

TEST_F(CWiseUnaryGradTest, Abs) {
  TestCWiseGrad(
      RILL_UNARY(Abs),
      [this](int) {
        return RV({-1, 0, 1});
      },
      [this](float x) {
        return x + RV({-2, 2, -3, 3, -4, 4});
      },
      [](float x, float dy) { return x * dy; });
}

TEST_F(CWiseUnaryGradTest, Lgamma) {
  TestCWiseGradNumeric(RILL_UNARY(Lgamma), [this](int) {
    return RV({-3.5, -2.5, -1.5, 1.0, 2.0, 3.5});
  });
}

TEST_F(CWiseUnaryGradTest, Neg) {
  TestCWiseGrad(
      RILL_UNARY(Neg),
      [this](int) {
        return RV({-1, 0, 1});
      },
      [this](float x) {
        return x + RV({-2, 2, -3, 3, -4, 4});
      },
      [](float, float dy) { return -dy; });
}

TEST_F(CWiseUnaryGradTest, Reciprocal) {
  TestCWiseGrad(
      RILL_UNARY(Reciprocal),
      [this](int) {
        return RV({-1, 1, -2, 2, -3, 3, -4, 4});
      },
      [this](float) {
        return RV({0, -2, 2, -3, 3, -4, 4});
      },
      [](float x, float dy) { return -(1 / (x * x)) * dy; });
}

TEST_F(CWiseUnaryGradTest, Square) {
  TestCWiseGrad(
      RILL_UNARY(Square),
      [this](int) {
        return RV({0, -1, 1, -2, 2, -3, 3});
      },
      [this](float) {
        return RV({0, -7, 7, -8, 8, -9, 9});
      },
      [](float x, float dy) { return 2 * x * dy; });
}

TEST_F(CWiseUnaryGradTest, Sqrt) {
  TestCWiseGrad(
      RILL_UNARY(Sqrt),
      [this](int) {
        return RV({0, 1, 2, 3, 4, 5, 6, 7});
      },
      [this](float x) {
        return x + RV({8, 9, 10, 11, 12, 13});
      },
      [](float x, float dy) { return static_cast<float>(dy * 0.5 * (1.0 / std::sqrt(x))); });
}

TEST_F(CWiseUnaryGradTest, Rsqrt) {
  TestCWiseGrad(
      RILL_UNARY(Rsqrt),
      [this](int) {
        return RV({1, 2, 3, 4, 5, 6, 7, 8});
      },
      [this](float x) {
        return x + RV({8, 9, 10, 11, 12, 13});
      },
      [](float x, float dy) {
        return static_cast<float>(dy * -0.5 * (1 / std::sqrt(x)) * (1 / x));
      });
}

TEST_F(CWiseUnaryGradTest, Exp) {
  TestCWiseGrad(
      RILL_UNARY(Exp),
      [this](int) {
        return RV({0, -1, 1, -2, 2, -3, 3});
      },
      [this](float x) {
        return x + RV({-2, 2, -3, 3, -4, 4});
      },
      [](float x, float dy) { return dy * std::exp(x); });
}

TEST_F(CWiseUnaryGradTest, Log) {
  TestCWiseGrad(
      RILL_UNARY(Log),
      [this](int) {
        return RV({-1, 1, -2, 2, -3, 3, -4, 4});
      },
      [this](float x) {
        return x + RV({-2, 2, -3, 3, -4, 4});
      },
      [](float x, float dy) { return static_cast<float>(dy * (1.0 / x)); });
}

TEST_F(CWiseUnaryGradTest, Tanh) {
  TestCWiseGrad(
      RILL_UNARY(Tanh),
      [this](int) {
        return RV({0, -1, 1, -2, 2, -3, 3});
      },
      [this](float x) {
        return x + RV({-2, 2, -3, 3, -4, 4});
      },
      [](float x, float dy) {
        const float y = std::tanh(x);
        return static_cast<float>(dy * (1.0 - y * y));
      });
}

TEST_F(CWiseUnaryGradTest, Sigmoid) {
  TestCWiseGrad(
      RILL_UNARY(Sigmoid),
      [this](int) {
        return RV({0, -1, 1, -2, 2, -3, 3});
      },
      [this](float x) {
        return x + RV({-2, 2, -3, 3, -4, 4});
      },
      [](float x, float dy) {
        const float y = 1.0 / (1.0 + std::exp(-x));
        return static_cast<float>(dy * y * (1.0 - y));
      });
}

TEST_F(CWiseUnaryGradTest, Sign) {
  TestCWiseGrad(
      RILL_UNARY(Sign),
      [this](int) {
        return RV({0, -1, 1, -2, 2, -3, 3});
      },
      [this](float x) {
        return x + RV({-2, 2, -3, 3, -4, 4});
      },
      [](float, float) { return 0.0f; });
}

TEST_F(CWiseUnaryGradTest, Sin) {
  TestCWiseGrad(
      RILL_UNARY(Sin),
      [this](int) {
        return RV({0, -1, 1, -2, 2, -3, 3});
      },
      [this](float x) {
        return x + RV({-2, 2, -3, 3, -4, 4});
      },
      [](float x, float dy) { return dy * std::cos(x); });
}

TEST_F(CWiseUnaryGradTest, Cos) {
  TestCWiseGrad(
      RILL_UNARY(Cos),
      [this](int) {
        return RV({0, -1, 1, -2, 2, -3, 3});
      },
      [this](float x) {
        return x + RV({-2, 2, -3, 3, -4, 4});
      },
      [](float x, float dy) { return static_cast<float>(dy * -1.0 * std::sin(x)); });
}

TEST_F(CWiseUnaryGradTest, Expm1) {
  TestCWiseGrad(
      RILL_UNARY(Expm1),
      [this](int) {
        return RV({0, -1, 1e-6, 1, -2, 3, 100});
      },
      [this](float x) {
        return x + RV({-2, 2, -3, 3, -4, 4});
      },
      [](float x, float dy) { return dy * std::exp(x); });
}

TEST_F(CWiseUnaryGradTest, Log1p) {
  TestCWiseGrad(
      RILL_UNARY(Log1p),
      [this](int) {
        return RV({0, 1e-6, 1, 2, 3, 4, 100});
      },
      [this](float x) {
        return x + RV({-2, 2, -3, 3, -4, 4});
      },
      [](float x, float dy) { return static_cast<float>(dy * (1.0 / (1.0 + x))); });
}

TEST_F(CWiseUnaryGradTest, Sinh) {
  TestCWiseGrad(
      RILL_UNARY(Sinh),
      [this](int) {
        return RV({0, -1, 1, -2, 2, -3, 3});
      },
      [this](float x) {
        return x + RV({-2, 2, -3, 3, -4, 4});
      },
      [](float x, float dy) { return dy * std::cosh(x); });
}

TEST_F(CWiseUnaryGradTest, Cosh) {
  TestCWiseGrad(
      RILL_UNARY(Cosh),
      [this](int) {
        return RV({0, -1, 1, -2, 2, -3, 3});
      },
      [this](float x) {
        return x + RV({-2, 2, -3, 3, -4, 4});
      },
      [](float x, float dy) { return dy * std::sinh(x); });
}

TEST_F(CWiseUnaryGradTest, Asinh) {
  TestCWiseGrad(
      RILL_UNARY(Asinh),
      [this](int) {
        return RV({0, -1, 1, -2, 2, -3, 3});
      },
      [this](float x) {
        return x + RV({-2, 2, -3, 3, -4, 4});
      },
      [](float x, float dy) { return dy / std::cosh(std::asinh(x)); });
}

TEST_F(CWiseUnaryGradTest, Acosh) {
  TestCWiseGrad(
      RILL_UNARY(Acosh),
      [this](int) {
        return RV({1, 2, 3, 4, 5, 6, 7});
      },
      [this](float x) {
        return x + RV({8, 9, 10, 11, 12, 13, 14});
      },
      [](float x, float dy) { return dy / std::sinh(std::acosh(x)); });
}

TEST_F(CWiseUnaryGradTest, Atanh) {
  TestCWiseGrad(
      RILL_UNARY(Atanh),
      [this](int) {
        return RV({0, -0.5, 0.5, -0.1, 0.1});
      },
      [this](float x) {
        return x + RV({-2, 2, -3, 3, -4, 4});
      },
      [](float x, float dy) { return static_cast<float>(dy * (1. / (1. - x * x))); });
}

TEST_F(CWiseUnaryGradTest, Asin) {
  TestCWiseGrad(
      RILL_UNARY(Asin),
      [this](int) {
        return RV({0, -0.5, 0.5, -1, 1});
      },
      [this](float x) {
        return x + RV({-2, 2, -3, 3, -4, 4});
      },
      [](float x, float dy) { return static_cast<float>(dy * (1.0 / std::sqrt(1.0 - x * x))); });
}

TEST_F(CWiseUnaryGradTest, Acos) {
  TestCWiseGrad(
      RILL_UNARY(Acos),
      [this](int) {
        return RV({0, -0.5, 0.5, -1, 1});
      },
      [this](float x) {
        return x + RV({-2, 2, -3, 3, -4, 4});
      },
      [](float x, float dy) { return static_cast<float>(dy * (-1.0 / std::sqrt(1.0 - x * x))); });
}

TEST_F(CWiseUnaryGradTest, Tan) {
  TestCWiseGrad(
      RILL_UNARY(Tan),
      [this](int) {
        return RV({0, -1, 1, -2, 2, -3, 3});
      },
      [this](float x) {
        return x + RV({-2, 2, -3, 3, -4, 4});
      },
      [](float x, float dy) {
        const float cosx = std::cos(x);
        return dy * (1 / (cosx * cosx));
      });
}

TEST_F(CWiseUnaryGradTest, Atan) {
  TestCWiseGrad(
      RILL_UNARY(Atan),
      [this](int) {
        return RV({0, -1, 1, -2, 2, -3, 3});
      },
      [this](float x) {
        return x + RV({-2, 2, -3, 3, -4, 4});
      },
      [](float x, float dy) { return dy * (1 / (1 + x * x)); });
}

#undef RILL_UNARY

class MathGradTest : public ::testing::Test {
 protected:
  MathGradTest() : root_(Scope::NewRootScope().WithDevice("/cpu:0")) {}

  // z = x y (optionally transposed, batched); MatMul's gradient function against the
  // products TensorFlow's test expects.
  void TestMatMulGrad(bool is_batch, bool t_x, bool t_y) {
    std::vector<Tensor> data = RandData(is_batch, t_x, t_y);
    auto x = Const(root_, data[0]);
    auto y = Const(root_, data[1]);
    auto dz = Const(root_, data[2]);
    Output z = Product(is_batch, x, t_x, y, t_y);
    std::vector<Output> grads;
    TF_ASSERT_OK(test::CallGradFunction(root_, Operation(z.node()), {dz}, &grads));
    ASSERT_EQ(2u, grads.size());
    std::vector<Tensor> got;
    test::GetTensors(root_, {grads[0], grads[1]}, &got);
    Output want_x, want_y;
    if (!t_x && !t_y) {
      want_x = Product(is_batch, dz, false, y, true);
      want_y = Product(is_batch, x, true, dz, false);
    } else if (t_x && !t_y) {
      want_x = Product(is_batch, y, false, dz, true);
      want_y = Product(is_batch, x, false, dz, false);
    } else if (!t_x && t_y) {
      want_x = Product(is_batch, dz, false, y, false);
      want_y = Product(is_batch, dz, true, x, false);
    } else {
      want_x = Product(is_batch, y, true, dz, true);
      want_y = Product(is_batch, dz, true, x, true);
    }
    std::vector<Tensor> want;
    test::GetTensors(root_, {want_x, want_y}, &want);
    test::ExpectClose(got[0], want[0]);
    test::ExpectClose(got[1], want[1]);
  }

  Output Product(bool is_batch, const Output& x, bool t_x, const Output& y, bool t_y) {
    if (is_batch) return BatchMatMul(root_, x, y, BatchMatMul::AdjX(t_x).AdjY(t_y));
    return MatMul(root_, x, y, MatMul::TransposeA(t_x).TransposeB(t_y));
  }

  // x, y and dz with random sizes in [1, 10] (a batch in [1, 4]) and values in [1, 10].
  std::vector<Tensor> RandData(bool is_batch, bool tx, bool ty) {
    const int64_t b = 1 + rng_() % 4, m = Rand(), k = Rand(), n = Rand();
    auto shape = [&](int64_t r, int64_t c, bool t) {
      std::vector<int64_t> d = t ? std::vector<int64_t>{c, r} : std::vector<int64_t>{r, c};
      if (is_batch) d.insert(d.begin(), b);
      return TensorShape(d);
    };
    std::vector<Tensor> data = {Tensor(DT_FLOAT, shape(m, k, tx)),
                                Tensor(DT_FLOAT, shape(k, n, ty)),
                                Tensor(DT_FLOAT, shape(m, n, false))};
    for (Tensor& t : data) {
      for (int64_t i = 0; i < t.NumElements(); ++i) t.flat<float>()(i) = static_cast<float>(Rand());
    }
    return data;
  }

  int Rand() { return 1 + static_cast<int>(rng_() % 10); }

  std::mt19937 rng_{17};
  Scope root_;
};

TEST_F(MathGradTest, MatMulGrad_NoTranspose) { TestMatMulGrad(false, false, false); }
TEST_F(MathGradTest, MatMulGrad_TransposeX) { TestMatMulGrad(false, true, false); }
TEST_F(MathGradTest, MatMulGrad_TransposeY) { TestMatMulGrad(false, false, true); }
TEST_F(MathGradTest, MatMulGrad_TransposeX_TransposeY) { TestMatMulGrad(false, true, true); }
TEST_F(MathGradTest, BatchMatMulGrad_NoTranspose) { TestMatMulGrad(true, false, false); }
TEST_F(MathGradTest, BatchMatMulGrad_TransposeX) { TestMatMulGrad(true, true, false); }
TEST_F(MathGradTest, BatchMatMulGrad_TransposeY) { TestMatMulGrad(true, false, true); }
TEST_F(MathGradTest, BatchMatMulGrad_TransposeX_TransposeY) { TestMatMulGrad(true, true, true); }

}  // namespace math_grad_test
}  // namespace
}  // namespace rill
