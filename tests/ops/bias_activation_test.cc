// _BiasActivation and _BiasActivationGrad, the fused end of Keras's Dense and Conv2D:
// against float64 references written here and against the unfused ops, on the default
// device (the GPU where there is one), in shapes that take each path of the GPU kernels
// (wide rows in one pass, many rows summed in parts, no rows); and in Keras's graphs.
#include <cmath>
#include <set>
#include <string>

#include "rill/ops/conv_ops.h"
#include "rill/ops/gradient_ops.h"
#include "rill/ops/nn_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace bias_activation_test {

using namespace ::rill::ops;  // NOLINT

MarkTested tested({"_BiasActivation", "_BiasActivationGrad"});

const char* const kActivations[] = {"relu", "sigmoid", "tanh"};

double Activate(const std::string& a, double z) {
  if (a == "relu") return z > 0 ? z : 0;
  if (a == "sigmoid") return 1 / (1 + std::exp(-z));
  return std::tanh(z);
}
double Backprop(const std::string& a, double dy, double y) {
  if (a == "relu") return y > 0 ? dy : 0;
  if (a == "sigmoid") return dy * y * (1 - y);
  return dy * (1 - y * y);
}

const std::vector<TensorShape>& Shapes() {
  static const std::vector<TensorShape> shapes = {TensorShape({32, 300}), TensorShape({2, 5, 7, 3}),
                                                  TensorShape({700, 3}), TensorShape({0, 4})};
  return shapes;
}

TEST(BiasActivation, MatchesReference) {
  uint32_t seed = 1;
  for (const TensorShape& shape : Shapes()) {
    const int64_t c = shape.dim_size(shape.dims() - 1), rows = shape.num_elements() / c;
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      for (const std::string a : kActivations) {
        SCOPED_TRACE(a + " " + shape.DebugString() + " " + DataTypeString(dt));
        Tensor v = RandomTensor(dt, shape, -2, 2, seed++), b = RandomTensor(dt, {c}, -1, 1, seed++);
        Tensor dy = RandomTensor(dt, shape, -1, 1, seed++);
        std::vector<double> vv = ToDoubles(v), bv = ToDoubles(b), dyv = ToDoubles(dy);
        std::vector<double> y(vv.size()), dz(vv.size()), db(c, 0.0);
        for (int64_t i = 0; i < static_cast<int64_t>(vv.size()); ++i) {
          y[i] = Activate(a, vv[i] + bv[i % c]);
        }
        // The gradient is fed y as the forward pass of this dtype made it.
        Tensor yt = FromDoubles(dt, shape, y);
        std::vector<double> yr = ToDoubles(yt);
        for (int64_t r = 0; r < rows; ++r) {
          for (int64_t k = 0; k < c; ++k) {
            dz[r * c + k] = Backprop(a, dyv[r * c + k], yr[r * c + k]);
            db[k] += dz[r * c + k];
          }
        }
        auto fwd = RunOp(
            [a](const Scope& s, const auto& in) { return BiasActivation(s, in[0], in[1], a); },
            {v, b});
        ASSERT_TRUE(fwd.ok()) << fwd.status();
        ExpectTensorNear(*fwd, dt, shape, y, Tolerance(dt));
        for (int out : {0, 1}) {
          auto got = RunOp(
              [a, out](const Scope& s, const auto& in) {
                BiasActivationGrad g(s, in[0], in[1], a);
                return out == 0 ? g.backprops : g.bias_backprop;
              },
              {dy, yt});
          ASSERT_TRUE(got.ok()) << got.status();
          // Column sums of up to 700 float32 terms: a looser bound than one rounding.
          ExpectTensorNear(*got, dt, out == 0 ? shape : TensorShape({c}), out == 0 ? dz : db,
                           out == 0 ? Tolerance(dt) : 50 * Tolerance(dt));
        }
      }
    }
  }
}

// What Keras built before the fusion, in the same Session: BiasAdd then the activation,
// and the activation's gradient op then BiasAddGrad.
TEST(BiasActivation, AgreesWithTheUnfusedOps) {
  for (const std::string a : kActivations) {
    SCOPED_TRACE(a);
    Scope s = Scope::NewRootScope();
    Tensor vt = RandomTensor(DT_FLOAT, {64, 40}, -2, 2, 5),
           bt = RandomTensor(DT_FLOAT, {40}, -1, 1, 6);
    Tensor dyt = RandomTensor(DT_FLOAT, {64, 40}, -1, 1, 7);
    auto v = Const(s, vt), b = Const(s, bt), dy = Const(s, dyt);
    Output fused = BiasActivation(s, v, b, a);
    BiasActivationGrad fused_grad(s, dy, fused, a);
    Output z = BiasAdd(s, v, b);
    Output plain = a == "relu"      ? Output(Relu(s, z))
                   : a == "sigmoid" ? Output(Sigmoid(s, z))
                                    : Output(Tanh(s, z));
    Output dz = a == "relu"      ? Output(ReluGrad(s, dy, z))
                : a == "sigmoid" ? Output(SigmoidGrad(s, plain, dy))
                                 : Output(TanhGrad(s, plain, dy));
    Output db = BiasAddGrad(s, dz);
    ASSERT_TRUE(s.ok()) << s.status();
    Session session(s);
    std::vector<Tensor> out;
    ASSERT_TRUE(
        session.Run({fused, fused_grad.backprops, fused_grad.bias_backprop, plain, dz, db}, &out)
            .ok());
    ExpectTensorNear(out[0], DT_FLOAT, TensorShape({64, 40}), ToDoubles(out[3]), 1e-6);
    ExpectTensorNear(out[1], DT_FLOAT, TensorShape({64, 40}), ToDoubles(out[4]), 1e-6);
    ExpectTensorNear(out[2], DT_FLOAT, TensorShape({40}), ToDoubles(out[5]), 1e-5);
  }
}

std::multiset<std::string> OpsOfATrainingStep(keras::Sequential& model, const std::string& loss,
                                              const std::vector<std::string>& metrics) {
  std::multiset<std::string> ops;
  if (!model.Compile("sgd", loss, metrics).ok()) return ops;
  Tensor x = RandomTensor(DT_FLOAT, {8, 5}, -1, 1, 8);
  Tensor y = FromDoubles(DT_FLOAT, {8, 1}, {0, 1, 1, 0, 1, 0, 0, 1});
  RunMetadata meta;
  if (!model.TraceTrainStep(x, y, &meta).ok()) return ops;
  for (const NodeExecStats& n : meta.step_stats.nodes) ops.insert(n.op);
  return ops;
}

// Dense(relu) runs one node forward and one backward; a sigmoid output whose loss reads
// its logits (binary cross-entropy) gets them from a BiasAdd made for that loss, while
// the accuracy reads the fused output.
// Keras builds BiasAdd and the activation; the graph optimizer fuses them where nothing
// else reads the BiasAdd.
TEST(BiasActivation, KerasDenseIsFusedAndLossesStillReadLogits) {
  keras::Sequential model;
  model.Add(std::make_shared<keras::Dense>(6, "relu"))
      .Add(std::make_shared<keras::Dense>(1, "sigmoid"));
  std::multiset<std::string> ops = OpsOfATrainingStep(model, "binary_crossentropy", {"accuracy"});
  ASSERT_FALSE(ops.empty());
  EXPECT_EQ(ops.count("_BiasActivationGrad"), 1u);  // the hidden layer's
  EXPECT_EQ(ops.count("_FusedMatMul"), 1u);         // the hidden layer's, with its MatMul
  EXPECT_EQ(ops.count("SigmoidCrossEntropyWithLogits"), 1u);
  // The output layer's logits feed the loss and the Sigmoid (for accuracy): computed once.
  EXPECT_EQ(ops.count("BiasAdd"), 1u);
  EXPECT_EQ(ops.count("Sigmoid"), 1u);
  EXPECT_EQ(ops.count("BiasAddGrad"), 1u);
  EXPECT_EQ(ops.count("Relu") + ops.count("ReluGrad") + ops.count("SigmoidGrad"), 0u);

  // With a loss of the probabilities (mse), no logits are made at all.
  keras::Sequential mse;
  mse.Add(std::make_shared<keras::Dense>(6, "tanh"))
      .Add(std::make_shared<keras::Dense>(1, "sigmoid"));
  ops = OpsOfATrainingStep(mse, "mse", {});
  ASSERT_FALSE(ops.empty());
  EXPECT_EQ(ops.count("_BiasActivationGrad"), 2u);
  EXPECT_EQ(ops.count("_FusedMatMul"), 2u);
  EXPECT_EQ(ops.count("BiasAdd") + ops.count("BiasAddGrad"), 0u);
}

}  // namespace bias_activation_test
}  // namespace
}  // namespace rill::testing
