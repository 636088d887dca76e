// The cases of TensorFlow's tensorflow/core/kernels/spectrogram_op_test.cc, rewritten
// against rill (their inputs and expected values are TensorFlow's; the code is ours). Lines
// that differ from TensorFlow's API are marked "rill:". Nothing is left out; TensorFlow's
// file defines NegativeWindowSize twice, so the second is NegativeWindowSizeMessage here.
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"

namespace rill {
namespace ops {
namespace {
namespace spectrogram_op_test {

// A two-channel input, as TensorFlow's error cases build it.
Output TwoChannelAudio(const Scope& root) {
  Tensor audio_tensor(DT_FLOAT, TensorShape({8, 2}));
  test::FillValues<float>(&audio_tensor, {-1.0f, -1.0f, 0.0f, 0.0f, 1.0f, 1.0f, 0.0f, 0.0f, -1.0f,
                                          -1.0f, 0.0f, 0.0f, 1.0f, 1.0f, 0.0f, 0.0f});
  return Const(root.WithOpName("audio_const_op"), Input::Initializer(audio_tensor));
}

TEST(SpectrogramOpTest, SimpleTest) {
  Scope root = Scope::NewRootScope();
  Tensor audio_tensor(DT_FLOAT, TensorShape({8, 1}));
  test::FillValues<float>(&audio_tensor, {-1.0f, 0.0f, 1.0f, 0.0f, -1.0f, 0.0f, 1.0f, 0.0f});
  Output audio_const_op =
      Const(root.WithOpName("audio_const_op"), Input::Initializer(audio_tensor));
  AudioSpectrogram spectrogram_op =
      AudioSpectrogram(root.WithOpName("spectrogram_op"), audio_const_op, 8, 1);
  TF_ASSERT_OK(root.status());
  ClientSession session(root);
  std::vector<Tensor> outputs;
  TF_EXPECT_OK(session.Run(ClientSession::FeedType(), {spectrogram_op.spectrogram}, &outputs));
  const Tensor& spectrogram_tensor = outputs[0];
  EXPECT_EQ(3, spectrogram_tensor.dims());
  EXPECT_EQ(5, spectrogram_tensor.dim_size(2));
  EXPECT_EQ(1, spectrogram_tensor.dim_size(1));
  EXPECT_EQ(1, spectrogram_tensor.dim_size(0));
  test::ExpectTensorNear<float>(
      spectrogram_tensor, test::AsTensor<float>({0, 1, 2, 1, 0}, TensorShape({1, 1, 5})), 1e-3);
}

TEST(SpectrogramOpTest, SquaredTest) {
  Scope root = Scope::NewRootScope();
  Tensor audio_tensor(DT_FLOAT, TensorShape({8, 1}));
  test::FillValues<float>(&audio_tensor, {-1.0f, 0.0f, 1.0f, 0.0f, -1.0f, 0.0f, 1.0f, 0.0f});
  Output audio_const_op =
      Const(root.WithOpName("audio_const_op"), Input::Initializer(audio_tensor));
  AudioSpectrogram spectrogram_op =
      AudioSpectrogram(root.WithOpName("spectrogram_op"), audio_const_op, 8, 1,
                       AudioSpectrogram::Attrs().MagnitudeSquared(true));
  TF_ASSERT_OK(root.status());
  ClientSession session(root);
  std::vector<Tensor> outputs;
  TF_EXPECT_OK(session.Run(ClientSession::FeedType(), {spectrogram_op.spectrogram}, &outputs));
  const Tensor& spectrogram_tensor = outputs[0];
  EXPECT_EQ(3, spectrogram_tensor.dims());
  EXPECT_EQ(5, spectrogram_tensor.dim_size(2));
  EXPECT_EQ(1, spectrogram_tensor.dim_size(1));
  EXPECT_EQ(1, spectrogram_tensor.dim_size(0));
  test::ExpectTensorNear<float>(
      spectrogram_tensor, test::AsTensor<float>({0, 1, 4, 1, 0}, TensorShape({1, 1, 5})), 1e-3);
}

TEST(SpectrogramOpTest, MultichannelTest) {
  Scope root = Scope::NewRootScope();
  const int audio_size = 8;
  const int channel_size = 2;
  Output audio_const_op = TwoChannelAudio(root);
  AudioSpectrogram spectrogram_op =
      AudioSpectrogram(root.WithOpName("spectrogram_op"), audio_const_op, audio_size, channel_size);
  TF_ASSERT_OK(root.status());
  ClientSession session(root);
  std::vector<Tensor> outputs;
  TF_EXPECT_OK(session.Run(ClientSession::FeedType(), {spectrogram_op.spectrogram}, &outputs));
  const Tensor& spectrogram_tensor = outputs[0];
  EXPECT_EQ(3, spectrogram_tensor.dims());
  EXPECT_EQ(5, spectrogram_tensor.dim_size(2));
  EXPECT_EQ(1, spectrogram_tensor.dim_size(1));
  EXPECT_EQ(channel_size, spectrogram_tensor.dim_size(0));
  for (int channel = 0; channel < channel_size; channel++) {
    test::ExpectTensorNear<float>(spectrogram_tensor.SubSlice(channel),
                                  test::AsTensor<float>({0, 1, 2, 1, 0}, TensorShape({1, 5})),
                                  1e-3);
  }
}

// The attrs are refused when the node is built: root.status() names them.
void ExpectRefused(int64_t window_size, int64_t stride, const char* regex) {
  Scope root = Scope::NewRootScope();
  AudioSpectrogram(root.WithOpName("spectrogram_op"), TwoChannelAudio(root), window_size, stride);
  EXPECT_EQ(root.status().code(), absl::StatusCode::kInvalidArgument) << root.status();
  EXPECT_THAT(std::string(root.status().message()), ::testing::ContainsRegex(regex));
}

TEST(SpectrogramOpTest, InvalidWindowSize) { ExpectRefused(1, 1, "window size"); }
TEST(SpectrogramOpTest, NegativeWindowSize) { ExpectRefused(-1, 1, "window size"); }
TEST(SpectrogramOpTest, InvalidStride) { ExpectRefused(2, 0, "stride"); }
TEST(SpectrogramOpTest, NegativeWindowSizeMessage) {
  ExpectRefused(-35, 1, "window size must be > 1");
}
TEST(SpectrogramOpTest, NegativeStride) {
  ExpectRefused(35, -5739, "stride must be strictly positive");
}

}  // namespace spectrogram_op_test
}  // namespace
}  // namespace ops
}  // namespace rill
