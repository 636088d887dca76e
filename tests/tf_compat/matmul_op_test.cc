// The cases of TensorFlow's tensorflow/core/kernels/matmul_op_test.cc, rewritten against rill
// (their shapes, fusions and tolerances are TensorFlow's; the code is ours): _FusedMatMul
// with TensorFlow's attrs (fused_ops, num_args) against MatMul, BiasAdd and the activation
// as separate nodes, for every transpose, in float.
// rill: the half-float instantiation is left out (rill has no half). The unfused graph runs
// through rill's GraphDef flow with the graph optimizer off (SessionOptions::optimize_graph,
// where TensorFlow turns off Grappler's remapper and constant folding one by one); the
// fused node runs through OpsTestBase from a NodeDefBuilder with FakeInputs, where
// TensorFlow adds a NodeDef to the GraphDef. The benchmarks are left out.
#include <string>
#include <vector>

#include "fused_op_test_util.h"
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace matmul_op_test {

template <typename T>
class FusedMatMulOpTest : public fused_op_test_util::FusedOpTestBase {
 protected:
  static constexpr auto kTValueType = DataTypeToEnum<T>::value;

  using BiasAddGraphRunner = std::function<bool(const Tensor& lhs_data, const Tensor& rhs_data,
                                                const Tensor& bias_data, Tensor* out)>;

  void RunMatMulWithBiasAndActivation(const Tensor& lhs_data, const Tensor& rhs_data,
                                      const Tensor& bias_data, bool transpose_a, bool transpose_b,
                                      const std::string& activation_type, Tensor* output,
                                      bool allow_gpu_device = false) {
    Scope root = Scope::NewRootScope();
    ops::MatMul matmul = ops::MatMul(
        root.WithOpName("matmul"), ops::Const(root.WithOpName("lhs"), Input::Initializer(lhs_data)),
        ops::Const(root.WithOpName("rhs"), Input::Initializer(rhs_data)),
        ops::MatMul::Attrs().TransposeA(transpose_a).TransposeB(transpose_b));
    ops::BiasAdd with_bias =
        ops::BiasAdd(root.WithOpName("with_bias"), matmul,
                     ops::Const(root.WithOpName("bias"), Input::Initializer(bias_data)));
    if (activation_type == "Relu") {
      ops::Relu(root.WithOpName("with_activation"), with_bias);
    } else if (activation_type == "Relu6") {
      ops::Relu6(root.WithOpName("with_activation"), with_bias);
    } else if (activation_type == "Elu") {
      ops::Elu(root.WithOpName("with_activation"), with_bias);
    } else if (activation_type == "LeakyRelu") {
      ops::internal::LeakyRelu(root.WithOpName("with_activation"), with_bias);
    } else if (activation_type == "Sigmoid") {
      ops::Sigmoid(root.WithOpName("with_activation"), with_bias);
    } else if (activation_type == "Tanh") {
      ops::Tanh(root.WithOpName("with_activation"), with_bias);
    } else {
      ops::Identity(root.WithOpName("with_activation"), with_bias);
    }
    RunAndFetch(root, "with_activation", output, allow_gpu_device);
  }

  void RunFusedMatMulOp(const Tensor& lhs_data, const Tensor& rhs_data,
                        const std::vector<Tensor>& args_data,
                        const std::vector<std::string>& fused_ops, bool transpose_a,
                        bool transpose_b, Tensor* output, bool allow_gpu_device = false) {
    const DataType dtype = DataTypeToEnum<T>::v();
    const int num_args = static_cast<int>(args_data.size());
    TF_ASSERT_OK(NodeDefBuilder("fused_matmul", "_FusedMatMul")
                     .Input(FakeInput(dtype))
                     .Input(FakeInput(dtype))
                     .Input(FakeInput(num_args, dtype))
                     .Attr("num_args", num_args)
                     .Attr("T", dtype)
                     .Attr("fused_ops", fused_ops)
                     .Attr("transpose_a", transpose_a)
                     .Attr("transpose_b", transpose_b)
                     .Finalize(node_def()));
    std::vector<const Tensor*> inputs = {&lhs_data, &rhs_data};
    for (const Tensor& arg : args_data) inputs.push_back(&arg);
    this->template RunNode<T>(inputs, output, allow_gpu_device);
  }

  void VerifyBiasAddTensorsNear(int m, int k, int n, bool transpose_a, bool transpose_b,
                                const BiasAddGraphRunner& run_default,
                                const BiasAddGraphRunner& run_fused) {
    DataType dtype = DataTypeToEnum<T>::v();
    Tensor lhs(dtype, {transpose_a ? k : m, transpose_a ? m : k});
    lhs.flat<T>() = lhs.flat<T>().setRandom();
    // Add some negative values to filter to properly test Relu.
    Tensor rhs(dtype, {transpose_b ? n : k, transpose_b ? k : n});
    rhs.flat<T>() = rhs.flat<T>().setRandom();
    rhs.flat<T>() -= rhs.flat<T>().constant(static_cast<T>(0.5f));
    // Bias added to the inner dimension.
    const int bias_size = n;
    Tensor bias(dtype, {bias_size});
    bias.flat<T>() = bias.flat<T>().setRandom();
    bias.flat<T>() += bias.flat<T>().constant(static_cast<T>(0.5f));

    Tensor matmul;
    Tensor fused_matmul;
    run_default(lhs, rhs, bias, &matmul);
    run_fused(lhs, rhs, bias, &fused_matmul);
    ASSERT_EQ(matmul.dtype(), fused_matmul.dtype());
    ASSERT_EQ(matmul.shape(), fused_matmul.shape());
    test::ExpectClose(matmul, fused_matmul, /*atol=*/1e-5, /*rtol=*/-1.0);
  }

  // Verifies that computing MatMul+BiasAdd in a graph is identical to FusedMatMul.
  void VerifyMatMulWithBias(int m, int k, int n, bool transpose_a, bool transpose_b) {
    const BiasAddGraphRunner run_default = [&](const Tensor& input_data, const Tensor& filter_data,
                                               const Tensor& bias_data, Tensor* out) {
      RunMatMulWithBiasAndActivation(input_data, filter_data, bias_data, transpose_a, transpose_b,
                                     "", out, /*allow_gpu_device=*/true);
      return false;
    };
    const BiasAddGraphRunner run_fused = [&](const Tensor& input_data, const Tensor& filter_data,
                                             const Tensor& bias_data, Tensor* out) {
      RunFusedMatMulOp(input_data, filter_data, {bias_data}, {"BiasAdd"}, transpose_a, transpose_b,
                       out, /*allow_gpu_device=*/true);
      return false;
    };
    VerifyBiasAddTensorsNear(m, k, n, transpose_a, transpose_b, run_default, run_fused);
  }

  // Verifies that computing MatMul+BiasAdd+{Activation} in a graph is identical to
  // FusedMatMul.
  void VerifyConv2DWithBiasAndActivation(int m, int k, int n, bool transpose_a, bool transpose_b,
                                         const std::string& activation) {
    const bool use_gpu_device = activation == "Relu";
    const BiasAddGraphRunner run_default = [&](const Tensor& input_data, const Tensor& filter_data,
                                               const Tensor& bias_data, Tensor* out) {
      RunMatMulWithBiasAndActivation(input_data, filter_data, bias_data, transpose_a, transpose_b,
                                     activation, out, use_gpu_device);
      return false;
    };
    const BiasAddGraphRunner run_fused = [&](const Tensor& input_data, const Tensor& filter_data,
                                             const Tensor& bias_data, Tensor* out) {
      RunFusedMatMulOp(input_data, filter_data, {bias_data}, {"BiasAdd", activation}, transpose_a,
                       transpose_b, out, use_gpu_device);
      return false;
    };
    VerifyBiasAddTensorsNear(m, k, n, transpose_a, transpose_b, run_default, run_fused);
  }
};

template <typename T>
class FusedMatMulWithBiasOpTest : public FusedMatMulOpTest<T> {};

TYPED_TEST_SUITE_P(FusedMatMulWithBiasOpTest);

TYPED_TEST_P(FusedMatMulWithBiasOpTest, MatMul256x128x64) {
  this->VerifyMatMulWithBias(256, 128, 64, false, false);
  this->VerifyMatMulWithBias(256, 128, 64, true, false);
  this->VerifyMatMulWithBias(256, 128, 64, false, true);
  this->VerifyMatMulWithBias(256, 128, 64, true, true);
}

TYPED_TEST_P(FusedMatMulWithBiasOpTest, MatMul1x256x256) {
  this->VerifyMatMulWithBias(1, 256, 256, false, false);
  this->VerifyMatMulWithBias(1, 256, 256, true, false);
  this->VerifyMatMulWithBias(1, 256, 256, false, true);
  this->VerifyMatMulWithBias(1, 256, 256, true, true);
}

TYPED_TEST_P(FusedMatMulWithBiasOpTest, MatMul256x256x1) {
  this->VerifyMatMulWithBias(256, 256, 1, false, false);
  this->VerifyMatMulWithBias(256, 256, 1, true, false);
  this->VerifyMatMulWithBias(256, 256, 1, false, true);
  this->VerifyMatMulWithBias(256, 256, 1, true, true);
}

TYPED_TEST_P(FusedMatMulWithBiasOpTest, MatMul1x256x1) {
  this->VerifyMatMulWithBias(1, 256, 1, false, false);
}

// TensorFlow's activations for float; rill also fuses Sigmoid and Tanh in float, which
// TensorFlow's test runs for half only.
std::vector<std::string> GetActivations() {
  return {"Relu", "Relu6", "Elu", "LeakyRelu", "Sigmoid", "Tanh"};
}

TYPED_TEST_P(FusedMatMulWithBiasOpTest, MatMul256x128x64WithActivation) {
  for (const std::string& activation : GetActivations()) {
    this->VerifyConv2DWithBiasAndActivation(256, 128, 64, false, false, activation);
    this->VerifyConv2DWithBiasAndActivation(256, 128, 64, true, false, activation);
    this->VerifyConv2DWithBiasAndActivation(256, 128, 64, false, true, activation);
    this->VerifyConv2DWithBiasAndActivation(256, 128, 64, true, true, activation);
  }
}

TYPED_TEST_P(FusedMatMulWithBiasOpTest, MatMul1x256x256WithActivation) {
  for (const std::string& activation : GetActivations()) {
    this->VerifyConv2DWithBiasAndActivation(1, 256, 256, false, false, activation);
  }
}

TYPED_TEST_P(FusedMatMulWithBiasOpTest, MatMul256x256x1WithActivation) {
  for (const std::string& activation : GetActivations()) {
    this->VerifyConv2DWithBiasAndActivation(256, 256, 1, false, false, activation);
  }
}

TYPED_TEST_P(FusedMatMulWithBiasOpTest, MatMul1x256x1WithActivation) {
  for (const std::string& activation : GetActivations()) {
    this->VerifyConv2DWithBiasAndActivation(1, 256, 1, false, false, activation);
  }
}

REGISTER_TYPED_TEST_SUITE_P(FusedMatMulWithBiasOpTest,       //
                            MatMul256x128x64,                //
                            MatMul1x256x256,                 //
                            MatMul256x256x1,                 //
                            MatMul1x256x1,                   //
                            MatMul256x128x64WithActivation,  //
                            MatMul1x256x256WithActivation,   //
                            MatMul256x256x1WithActivation,   //
                            MatMul1x256x1WithActivation);

using FusedBiasAddDataTypes = ::testing::Types<float>;  // rill: no Eigen::half
INSTANTIATE_TYPED_TEST_SUITE_P(Test, FusedMatMulWithBiasOpTest, FusedBiasAddDataTypes);

}  // namespace matmul_op_test
}  // namespace
}  // namespace rill
