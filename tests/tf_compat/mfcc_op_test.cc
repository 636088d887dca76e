// The cases of TensorFlow's tensorflow/core/kernels/mfcc_op_test.cc, rewritten against rill
// (their inputs and expected values are TensorFlow's; the code is ours). Lines that differ
// from TensorFlow's API are marked "rill:". Nothing is left out.
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"

namespace rill {
namespace ops {
namespace {
namespace mfcc_op_test {

TEST(MfccOpTest, SimpleTest) {
  // rill: NewRootScope. TensorFlow's test turns shape inference off because Mfcc's shape
  // function there wants a vector sample rate where its kernel reads a scalar; rill's
  // shape function takes the scalar.
  Scope root = Scope::NewRootScope();
  Tensor spectrogram_tensor(DT_FLOAT, TensorShape({1, 1, 513}));
  test::FillIota<float>(&spectrogram_tensor, 1.0f);
  Output spectrogram_const_op =
      Const(root.WithOpName("spectrogram_const_op"), Input::Initializer(spectrogram_tensor));
  Output sample_rate_const_op = Const(root.WithOpName("sample_rate_const_op"), 22050);
  Mfcc mfcc_op = Mfcc(root.WithOpName("mfcc_op"), spectrogram_const_op, sample_rate_const_op);
  TF_ASSERT_OK(root.status());
  ClientSession session(root);
  std::vector<Tensor> outputs;
  TF_EXPECT_OK(session.Run(ClientSession::FeedType(), {mfcc_op.output}, &outputs));
  const Tensor& mfcc_tensor = outputs[0];
  EXPECT_EQ(3, mfcc_tensor.dims());
  EXPECT_EQ(13, mfcc_tensor.dim_size(2));
  EXPECT_EQ(1, mfcc_tensor.dim_size(1));
  EXPECT_EQ(1, mfcc_tensor.dim_size(0));
  test::ExpectTensorNear<float>(
      mfcc_tensor,
      test::AsTensor<float>(
          {29.13970072, -6.41568601, -0.61903012, -0.96778652, -0.26819878, -0.40907028,
           -0.15614748, -0.23203119, -0.10481487, -0.1543029, -0.0769791, -0.10806114, -0.06047613},
          TensorShape({1, 1, 13})),
      1e-3);
}

TEST(MfccOpTest, MultiChannelTest) {
  Scope root = Scope::NewRootScope();  // rill: NewRootScope, as above
  Tensor spectrogram_tensor(DT_FLOAT, TensorShape({2, 1, 513}));
  test::FillIota<float>(&spectrogram_tensor, 1.0f);
  Output spectrogram_const_op =
      Const(root.WithOpName("spectrogram_const_op"), Input::Initializer(spectrogram_tensor));
  Output sample_rate_const_op = Const(root.WithOpName("sample_rate_const_op"), 22050);
  Mfcc mfcc_op = Mfcc(root.WithOpName("mfcc_op"), spectrogram_const_op, sample_rate_const_op);
  TF_ASSERT_OK(root.status());
  ClientSession session(root);
  std::vector<Tensor> outputs;
  TF_EXPECT_OK(session.Run(ClientSession::FeedType(), {mfcc_op.output}, &outputs));
  const Tensor& mfcc_tensor = outputs[0];
  EXPECT_EQ(3, mfcc_tensor.dims());
  EXPECT_EQ(13, mfcc_tensor.dim_size(2));
  EXPECT_EQ(1, mfcc_tensor.dim_size(1));
  EXPECT_EQ(2, mfcc_tensor.dim_size(0));
}

}  // namespace mfcc_op_test
}  // namespace
}  // namespace ops
}  // namespace rill
