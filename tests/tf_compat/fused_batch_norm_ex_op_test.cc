// The cases of TensorFlow's tensorflow/core/kernels/fused_batch_norm_ex_op_test.cc,
// rewritten against rill (its shapes, epsilon, random inputs and tolerance are TensorFlow's;
// the code is ours): _FusedBatchNormEx, added to the GraphDef as a NodeDef with real inputs,
// against FusedBatchNormV3, the side input's Add and the Relu as separate nodes, forward and
// through FusedBatchNormGradV3, with the graph optimizer's passes turned off by the
// ConfigProto as TensorFlow's test does.
// rill: TensorFlow instantiates the cases for half on GPUs alone; rill has no half, so they
// run in float, on the GPU when there is one (the op runs on the CPU there).
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/core/tf_compat.h"
#include "rill/rill.h"
#include "rill/runtime/testing/node_def_builder.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace fused_batch_norm_ex_op_test {

template <typename T, typename U>
class FusedBatchNormExOpTestBase : public OpsTestBase {
 protected:
  struct FusedBatchNormOutputs {
    Tensor y, batch_mean, batch_variance, reserve_space_1, reserve_space_2, reserve_space_3;
  };
  struct FusedBatchNormGradOutputs {
    Tensor y_backprop, x_backprop, scale_backprop, offset_backprop, reserve_space_4,
        reserve_space_5;
  };

  using GraphRunner = std::function<void(
      const Tensor& y_backprop, const Tensor& input_data, const Tensor& scale_data,
      const Tensor& offset_data, const Tensor& mean_data, const Tensor& var_data,
      const Tensor& side_input_data, FusedBatchNormOutputs* forward,
      FusedBatchNormGradOutputs* backward)>;

  // Runs the graph of `root` with `add_nodes` added to its GraphDef, every node on one
  // device, the optimizer's passes off, and fetches `fetch`.
  void RunAndFetch(const Scope& root, const std::vector<std::string>& fetch,
                   std::vector<Tensor>* outputs, bool allow_gpu_device,
                   const std::vector<const NodeDef*>& add_nodes = {}) {
    GraphDef graph;
    TF_ASSERT_OK(root.ToGraphDef(&graph));
    for (const NodeDef* add_node : add_nodes) *graph.add_node() = *add_node;

    SessionOptions session_options;
    session_options.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
        OptimizerOptions::L0);
    RewriterConfig* cfg = session_options.config.mutable_graph_options()->mutable_rewrite_options();
    cfg->set_constant_folding(RewriterConfig::OFF);
    cfg->set_layout_optimizer(RewriterConfig::OFF);
    cfg->set_remapping(RewriterConfig::OFF);
    std::unique_ptr<Session> session(NewSession(session_options));

    std::vector<DeviceAttributes> available_devices;
    TF_ASSERT_OK(session->ListDevices(&available_devices));
    const bool has_gpu_device =
        std::any_of(available_devices.begin(), available_devices.end(),
                    [](const DeviceAttributes& d) { return d.device_type() == DEVICE_GPU; });
    const std::string device =
        allow_gpu_device && has_gpu_device ? "/device:GPU:0" : "/device:CPU:0";
    for (NodeDef& mutable_node : *graph.mutable_node()) mutable_node.set_device(device);

    TF_ASSERT_OK(session->Create(graph));
    TF_ASSERT_OK(session->Run({}, fetch, {}, outputs));
  }

  void RunFusedBatchNorm(const Tensor& y_backprop_data, const Tensor& input_data,
                         const Tensor& scale_data, const Tensor& offset_data,
                         const Tensor& mean_data, const Tensor& var_data,
                         const Tensor& side_input_data, const TensorFormat data_format,
                         bool is_training, bool has_side_input, const std::string& activation_mode,
                         FusedBatchNormOutputs* forward, FusedBatchNormGradOutputs* backward,
                         float epsilon = 0.1f) {
    Scope root = Scope::NewRootScope();
    Output y_backprop =
        ops::Const(root.WithOpName("y_backprop"), Input::Initializer(y_backprop_data));
    Output input = ops::Const(root.WithOpName("input"), Input::Initializer(input_data));
    Output scale = ops::Const(root.WithOpName("scale"), Input::Initializer(scale_data));
    Output offset = ops::Const(root.WithOpName("offset"), Input::Initializer(offset_data));
    Output mean = ops::Const(root.WithOpName("mean"), Input::Initializer(mean_data));
    Output var = ops::Const(root.WithOpName("var"), Input::Initializer(var_data));
    Output side_input =
        ops::Const(root.WithOpName("side_input"), Input::Initializer(side_input_data));

    ops::FusedBatchNormV3 fwd(root.WithOpName("fused_batch_norm"), input, scale, offset, mean, var,
                              ops::FusedBatchNormV3::IsTraining(is_training)
                                  .Epsilon(epsilon)
                                  .DataFormat(ToString(data_format)));
    Output with_side_input =
        has_side_input ? Output(ops::Add(root.WithOpName("with_side_input"), fwd.y, side_input))
                       : Output(ops::Identity(root.WithOpName("with_side_input"), fwd.y));
    Output activation =
        activation_mode == "Relu"
            ? Output(ops::Relu(root.WithOpName("with_activation"), with_side_input))
            : Output(ops::Identity(root.WithOpName("with_activation"), with_side_input));
    Output activation_grad =
        activation_mode == "Relu"
            ? Output(ops::internal::ReluGrad(root.WithOpName("activation_grad"), y_backprop,
                                             activation))
            : Output(ops::Identity(root.WithOpName("activation_grad"), y_backprop));
    ops::FusedBatchNormGradV3 bwd(root.WithOpName("fused_batch_norm_grad"), activation_grad, input,
                                  scale, fwd.reserve_space_1, fwd.reserve_space_2,
                                  fwd.reserve_space_3,
                                  ops::FusedBatchNormGradV3::IsTraining(is_training)
                                      .Epsilon(epsilon)
                                      .DataFormat(ToString(data_format)));

    std::vector<Tensor> out_tensors;
    RunAndFetch(
        root,
        {"with_activation:0", "fused_batch_norm:1", "fused_batch_norm:2", "fused_batch_norm:3",
         "fused_batch_norm:4", "fused_batch_norm:5", "activation_grad:0", "fused_batch_norm_grad:0",
         "fused_batch_norm_grad:1", "fused_batch_norm_grad:2"},
        &out_tensors, /*allow_gpu_device=*/true);
    ASSERT_EQ(out_tensors.size(), 10u);
    *forward = {out_tensors[0], out_tensors[1], out_tensors[2],
                out_tensors[3], out_tensors[4], out_tensors[5]};
    *backward = {out_tensors[6], out_tensors[7], out_tensors[8], out_tensors[9], {}, {}};
  }

  void RunFusedBatchNormEx(const Tensor& y_backprop_data, const Tensor& input_data,
                           const Tensor& scale_data, const Tensor& offset_data,
                           const Tensor& mean_data, const Tensor& var_data,
                           const Tensor& side_input_data, const TensorFormat data_format,
                           bool is_training, bool has_side_input,
                           const std::string& activation_mode, FusedBatchNormOutputs* forward,
                           FusedBatchNormGradOutputs* backward, float epsilon = 0.1f) {
    Scope root = Scope::NewRootScope();
    const DataType t_dtype = DataTypeToEnum<T>::v();
    const DataType u_dtype = DataTypeToEnum<U>::v();
    Output y_backprop =
        ops::Const(root.WithOpName("y_backprop"), Input::Initializer(y_backprop_data));
    Output input = ops::Const(root.WithOpName("input"), Input::Initializer(input_data));
    Output scale = ops::Const(root.WithOpName("scale"), Input::Initializer(scale_data));
    Output offset = ops::Const(root.WithOpName("offset"), Input::Initializer(offset_data));
    Output mean = ops::Const(root.WithOpName("mean"), Input::Initializer(mean_data));
    Output var = ops::Const(root.WithOpName("var"), Input::Initializer(var_data));
    Output side_input =
        ops::Const(root.WithOpName("side_input"), Input::Initializer(side_input_data));
    // Unused, as in TensorFlow's test: a node of the graph all the same.
    [[maybe_unused]] Output empty = ops::Const(
        root.WithOpName("empty"), Input::Initializer(Tensor(DataTypeToEnum<U>::value, {0})));

    int num_side_inputs = 0;
    std::vector<NodeDefBuilder::NodeOut> side_inputs;
    if (has_side_input) {
      num_side_inputs = 1;
      side_inputs.push_back({side_input.name(), 0, t_dtype});
    }

    NodeDef fused_batch_norm_ex;
    TF_EXPECT_OK(NodeDefBuilder("fused_batch_norm_ex", "_FusedBatchNormEx")
                     .Input({input.name(), 0, t_dtype})
                     .Input({scale.name(), 0, u_dtype})
                     .Input({offset.name(), 0, u_dtype})
                     .Input({mean.name(), 0, u_dtype})
                     .Input({var.name(), 0, u_dtype})
                     .Input(side_inputs)
                     .Attr("T", t_dtype)
                     .Attr("U", u_dtype)
                     .Attr("data_format", ToString(data_format))
                     .Attr("epsilon", epsilon)
                     .Attr("activation_mode", activation_mode)
                     .Attr("num_side_inputs", num_side_inputs)
                     .Attr("is_training", is_training)
                     .Finalize(&fused_batch_norm_ex));

    NodeDef activation_grad;
    if (activation_mode == "Relu") {
      TF_EXPECT_OK(NodeDefBuilder("activation_grad", "ReluGrad")
                       .Input({y_backprop.name(), 0, t_dtype})
                       .Input({fused_batch_norm_ex.name(), 0, t_dtype})
                       .Attr("T", t_dtype)
                       .Finalize(&activation_grad));
    } else {
      TF_EXPECT_OK(NodeDefBuilder("activation_grad", "Identity")
                       .Input({y_backprop.name(), 0, t_dtype})
                       .Attr("T", t_dtype)
                       .Finalize(&activation_grad));
    }

    NodeDef fused_batch_norm_grad;
    TF_EXPECT_OK(NodeDefBuilder("fused_batch_norm_grad", "FusedBatchNormGradV3")
                     .Input({activation_grad.name(), 0, t_dtype})
                     .Input({input.name(), 0, t_dtype})
                     .Input({scale.name(), 0, u_dtype})
                     .Input({fused_batch_norm_ex.name(), 3, u_dtype})
                     .Input({fused_batch_norm_ex.name(), 4, u_dtype})
                     .Input({fused_batch_norm_ex.name(), 5, u_dtype})
                     .Attr("T", t_dtype)
                     .Attr("U", u_dtype)
                     .Attr("data_format", ToString(data_format))
                     .Attr("epsilon", epsilon)
                     .Attr("is_training", is_training)
                     .Finalize(&fused_batch_norm_grad));

    std::vector<Tensor> out_tensors;
    RunAndFetch(root,
                {"fused_batch_norm_ex:0", "fused_batch_norm_ex:1", "fused_batch_norm_ex:2",
                 "fused_batch_norm_ex:3", "fused_batch_norm_ex:4", "fused_batch_norm_ex:5",
                 "activation_grad:0", "fused_batch_norm_grad:0", "fused_batch_norm_grad:1",
                 "fused_batch_norm_grad:2"},
                &out_tensors, /*allow_gpu_device=*/true,
                {&fused_batch_norm_ex, &activation_grad, &fused_batch_norm_grad});
    ASSERT_EQ(out_tensors.size(), 10u);
    *forward = {out_tensors[0], out_tensors[1], out_tensors[2],
                out_tensors[3], out_tensors[4], out_tensors[5]};
    *backward = {out_tensors[6], out_tensors[7], out_tensors[8], out_tensors[9], {}, {}};
  }

  void VerifyTensorsNear(int batch, int height, int width, int channels, TensorFormat data_format,
                         bool is_training, const GraphRunner& run_default,
                         const GraphRunner& run_fused) {
    const DataType t_dtype = DataTypeToEnum<T>::v();
    const DataType u_dtype = DataTypeToEnum<U>::v();
    const TensorShape input_shape = data_format == FORMAT_NHWC
                                        ? TensorShape({batch, height, width, channels})
                                        : TensorShape({batch, channels, height, width});
    Tensor input(t_dtype, input_shape);
    input.flat<T>().setRandom();
    input.flat<T>() -= input.flat<T>().constant(static_cast<T>(0.5));
    Tensor scale(u_dtype, {channels});
    scale.flat<U>().setRandom();
    Tensor offset(u_dtype, {channels});
    offset.flat<U>().setRandom();
    Tensor mean(u_dtype, {channels});
    mean.flat<U>().setRandom();
    Tensor var(u_dtype, {channels});
    var.flat<U>().setRandom();
    Tensor side_input(t_dtype, input_shape);
    side_input.flat<T>().setRandom();
    side_input.flat<T>() += side_input.flat<T>().constant(static_cast<T>(5.0));
    Tensor y_backprop(t_dtype, input_shape);
    y_backprop.flat<T>().setRandom();
    y_backprop.flat<T>() -= y_backprop.flat<T>().constant(static_cast<T>(0.5));
    Tensor empty(u_dtype, {0});

    FusedBatchNormOutputs fbn_forward, fbn_ex_forward;
    FusedBatchNormGradOutputs fbn_backward, fbn_ex_backward;
    run_default(y_backprop, input, scale, offset, is_training ? empty : mean,
                is_training ? empty : var, side_input, &fbn_forward, &fbn_backward);
    // Garbage in the fused outputs first, so that the fused kernel must write them all.
    run_default(y_backprop, side_input, scale, offset, is_training ? empty : mean,
                is_training ? empty : var, input, &fbn_ex_forward, &fbn_ex_backward);
    run_fused(y_backprop, input, scale, offset, is_training ? empty : mean,
              is_training ? empty : var, side_input, &fbn_ex_forward, &fbn_ex_backward);

    // reserve_space_3 is left out, as in TensorFlow's test.
    const std::vector<std::pair<Tensor, Tensor>> tensor_pairs = {
        {fbn_forward.y, fbn_ex_forward.y},
        {fbn_forward.batch_mean, fbn_ex_forward.batch_mean},
        {fbn_forward.batch_variance, fbn_ex_forward.batch_variance},
        {fbn_forward.reserve_space_1, fbn_ex_forward.reserve_space_1},
        {fbn_forward.reserve_space_2, fbn_ex_forward.reserve_space_2},
        {fbn_backward.y_backprop, fbn_ex_backward.y_backprop},
        {fbn_backward.x_backprop, fbn_ex_backward.x_backprop},
        {fbn_backward.scale_backprop, fbn_ex_backward.scale_backprop},
        {fbn_backward.offset_backprop, fbn_ex_backward.offset_backprop},
    };
    for (const auto& [fbn, fbn_ex] : tensor_pairs) {
      ASSERT_EQ(fbn.dtype(), fbn_ex.dtype());
      ASSERT_EQ(fbn.shape(), fbn_ex.shape());
      test::ExpectClose(fbn, fbn_ex, 1e-2);
    }
  }

  // FusedBatchNormV3 + {SideInput} + {Activation} against _FusedBatchNormEx fusing them.
  void VerifyFusedBatchNormEx(int batch, int height, int width, int channels,
                              TensorFormat data_format, bool is_training, bool has_side_input,
                              const std::string& activation_mode) {
    const GraphRunner run_default = [&](const Tensor& y_backprop, const Tensor& input_data,
                                        const Tensor& scale_data, const Tensor& offset_data,
                                        const Tensor& mean_data, const Tensor& var_data,
                                        const Tensor& side_input_data, FusedBatchNormOutputs* fwd,
                                        FusedBatchNormGradOutputs* bwd) {
      this->RunFusedBatchNorm(y_backprop, input_data, scale_data, offset_data, mean_data, var_data,
                              side_input_data, data_format, is_training, has_side_input,
                              activation_mode, fwd, bwd);
    };
    const GraphRunner run_inference = [&](const Tensor& y_backprop, const Tensor& input_data,
                                          const Tensor& scale_data, const Tensor& offset_data,
                                          const Tensor& mean_data, const Tensor& var_data,
                                          const Tensor& side_input_data, FusedBatchNormOutputs* fwd,
                                          FusedBatchNormGradOutputs* bwd) {
      this->RunFusedBatchNormEx(y_backprop, input_data, scale_data, offset_data, mean_data,
                                var_data, side_input_data, data_format, is_training, has_side_input,
                                activation_mode, fwd, bwd);
    };
    VerifyTensorsNear(batch, height, width, channels, data_format, is_training, run_default,
                      run_inference);
  }
};

template <typename T>
using FusedBatchNormExOpTest = FusedBatchNormExOpTestBase<T, float>;  // scale is always float

constexpr bool kInTraining = true;
constexpr bool kNoSideInput = false;
constexpr bool kWithSideInput = true;

TYPED_TEST_SUITE_P(FusedBatchNormExOpTest);

TYPED_TEST_P(FusedBatchNormExOpTest, TrainingInNHWCTest) {
  this->VerifyFusedBatchNormEx(4, 28, 28, 256, FORMAT_NHWC, kInTraining, kNoSideInput, "Identity");
}

TYPED_TEST_P(FusedBatchNormExOpTest, TrainingWithReluInNHWCTest) {
  this->VerifyFusedBatchNormEx(4, 28, 28, 256, FORMAT_NHWC, kInTraining, kNoSideInput, "Relu");
}

TYPED_TEST_P(FusedBatchNormExOpTest, TrainingWithSideInputAndReluInNHWCTest) {
  this->VerifyFusedBatchNormEx(4, 28, 28, 256, FORMAT_NHWC, kInTraining, kWithSideInput, "Relu");
}

REGISTER_TYPED_TEST_SUITE_P(FusedBatchNormExOpTest, TrainingInNHWCTest, TrainingWithReluInNHWCTest,
                            TrainingWithSideInputAndReluInNHWCTest);

// rill: float, where TensorFlow's test instantiates half on GPUs alone.
using FusedBatchNormExDataTypes = ::testing::Types<float>;
INSTANTIATE_TYPED_TEST_SUITE_P(Test, FusedBatchNormExOpTest, FusedBatchNormExDataTypes);

}  // namespace fused_batch_norm_ex_op_test
}  // namespace
}  // namespace rill
