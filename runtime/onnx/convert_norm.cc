// ONNX's normalizations as compositions (so that gradients and GPU kernels come from the
// ops'): BatchNormalization in inference mode folds its four vectors into one scale and
// one offset per channel; InstanceNormalization and LayerNormalization normalize over the
// spatial dims / the dims from `axis` with Mean, Square and Rsqrt; MeanVarianceNormalization
// over its axes.
#include "rill/runtime/onnx/converter.h"
#include "rill/runtime/onnx/layout.h"

namespace rill::onnx::internal {
namespace {

// A per-channel vector [C] shaped [C, 1, ...] to broadcast against N, C, spatial... .
Output PerChannel(const NodeContext& c, const Output& v, int64_t rank) {
  std::vector<int64_t> shape(std::max<int64_t>(rank - 1, 1), 1);
  shape[0] = -1;
  return c.Op("Reshape", {v, c.Int64s(shape)});
}

// Training (opset 14's training_mode) normalizes with the batch's statistics and returns
// the running ones updated; before opset 14, training had other outputs (saved mean and
// variance) that ONNX's specs describe only loosely, and stays refused.
std::string BatchNormSupport(const SupportView& v) {
  const bool training = v.attrs.i("training_mode", 0) != 0;
  if (training && v.opset < 14) return "training_mode 1 before opset 14";
  for (int i = 1; i < v.node.output_size() && !training; ++i) {
    if (!v.node.output(i).empty()) return "the running mean and variance outputs (training)";
  }
  if (v.opset < 7 && v.attrs.i("is_test", 0) == 0) return "training (is_test 0)";
  return "";
}

absl::Status ConvertBatchNormTraining(NodeContext& c);

// Inference: (x - mean) * scale / sqrt(var + epsilon) + B, per channel.
absl::Status ConvertBatchNorm(NodeContext& c) {
  if (c.attrs().i("training_mode", 0) != 0) return ConvertBatchNormTraining(c);
  Output x = c.input(0);
  const int64_t rank = RankOf(x);
  if (rank < 2) return c.Error("the input's rank is not known or below 2");
  const float eps = c.attrs().f("epsilon", 1e-5f);
  Output inv = c.Op("Rsqrt", {c.Op("Add", {c.input(4), ScalarLike(c, x, eps)})});
  Output mul = c.Op("Mul", {c.input(1), inv});
  Output add = c.Op("Sub", {c.input(2), c.Op("Mul", {c.input(3), mul})});
  if (Output t = c.nhwc_input(0); t.node() != nullptr) {  // channels last: [C] broadcasts
    SetChannelsLast(c, 0, c.Op("Add", {c.Op("Mul", {t, mul}), add}), static_cast<int>(rank));
    return absl::OkStatus();
  }
  c.set_output(0,
               c.Op("Add", {c.Op("Mul", {x, PerChannel(c, mul, rank)}), PerChannel(c, add, rank)}));
  return absl::OkStatus();
}

// (x - mean) / sqrt(var + eps) over `axes`, with mean and 1/sqrt(var + eps) kept.
struct Normalized {
  Output y, mean, var, inv_std;
};
Normalized Normalize(const NodeContext& c, const Output& x, const std::vector<int64_t>& axes,
                     float eps) {
  Output ax = c.Int64s(axes);
  Output mean = c.Op("Mean", {x, ax}, {{"keep_dims", true}});
  Output centered = c.Op("Sub", {x, mean});
  Output var = c.Op("Mean", {c.Op("Square", {centered}), ax}, {{"keep_dims", true}});
  Output inv = c.Op("Rsqrt", {c.Op("Add", {var, ScalarLike(c, x, eps)})});
  return {c.Op("Mul", {centered, inv}), mean, var, inv};
}

// Training: y normalized with the batch's mean and (biased) variance over N and the
// spatial dims; running = input_running * momentum + batch * (1 - momentum), as ONNX's
// reference computes them.
absl::Status ConvertBatchNormTraining(NodeContext& c) {
  Output x = c.input(0);
  const int64_t rank = RankOf(x);
  if (rank < 2) return c.Error("the input's rank is not known or below 2");
  RILL_ASSIGN_OR_RETURN(std::vector<int64_t> axes, SpatialAxes(c, x));
  axes.insert(axes.begin(), 0);
  Normalized n = Normalize(c, x, axes, c.attrs().f("epsilon", 1e-5f));
  c.set_output(0, c.Op("Add", {c.Op("Mul", {n.y, PerChannel(c, c.input(1), rank)}),
                               PerChannel(c, c.input(2), rank)}));
  const double momentum = c.attrs().f("momentum", 0.9f);
  auto running = [&](const Output& before, const Output& batch) {
    Output now = c.Op("Reshape", {batch, c.Int64s({-1})});
    return c.Op("Add", {c.Op("Mul", {before, ScalarLike(c, before, momentum)}),
                        c.Op("Mul", {now, ScalarLike(c, now, 1 - momentum)})});
  };
  c.set_output(1, running(c.input(3), n.mean));
  c.set_output(2, running(c.input(4), n.var));
  return absl::OkStatus();
}

absl::Status ConvertInstanceNorm(NodeContext& c) {
  Output x = c.input(0);
  RILL_ASSIGN_OR_RETURN(std::vector<int64_t> axes, SpatialAxes(c, x));
  Normalized n = Normalize(c, x, axes, c.attrs().f("epsilon", 1e-5f));
  const int64_t rank = RankOf(x);
  c.set_output(0, c.Op("Add", {c.Op("Mul", {n.y, PerChannel(c, c.input(1), rank)}),
                               PerChannel(c, c.input(2), rank)}));
  return absl::OkStatus();
}

absl::Status ConvertLayerNorm(NodeContext& c) {
  Output x = c.input(0);
  RILL_ASSIGN_OR_RETURN(const int64_t axis, AxisAttr(c, x, -1));
  const int64_t rank = RankOf(x);
  std::vector<int64_t> axes;
  for (int64_t d = axis; d < rank; ++d) axes.push_back(d);
  Normalized n = Normalize(c, x, axes, c.attrs().f("epsilon", 1e-5f));
  Output y = c.Op("Mul", {n.y, c.input(1)});
  if (c.has_input(2)) y = c.Op("Add", {y, c.input(2)});
  c.set_output(0, y);
  c.set_output(1, n.mean);
  c.set_output(2, n.inv_std);
  return absl::OkStatus();
}

// MeanVarianceNormalization: (x - mean) / (standard deviation + 1e-9) over `axes` (by
// default N and the spatial dims of NCHW), as ONNX's function body says, with the variance
// taken of the centered values (E[x^2] - E[x]^2, the body's, cancels digits).
absl::Status ConvertMeanVarianceNorm(NodeContext& c) {
  Output x = c.input(0);
  Output axes =
      c.Int64s(c.attrs().has("axes") ? c.attrs().ints("axes") : std::vector<int64_t>{0, 2, 3});
  Output centered = c.Op("Sub", {x, c.Op("Mean", {x, axes}, {{"keep_dims", true}})});
  Output var = c.Op("Mean", {c.Op("Square", {centered}), axes}, {{"keep_dims", true}});
  c.set_output(
      0, c.Op("Div", {centered, c.Op("Add", {c.Op("Sqrt", {var}), ScalarLike(c, x, 1e-9f)})}));
  return absl::OkStatus();
}

// LRN over the channel dim (1) of [N, C, ...]: x / (bias + alpha / size * sum of x^2 over
// the channels c - floor((size-1)/2) .. c + ceil((size-1)/2))^beta; the window's sum is
// the sum of `size` slices of the squares padded with zeros along C.
absl::Status ConvertLrn(NodeContext& c) {
  Output x = c.input(0);
  const int64_t rank = RankOf(x), size = c.attrs().i("size", 0);
  if (rank < 3) return c.Error("the input's rank must be known and at least 3");
  if (size < 1 || size > kMaxImportTable) return c.Error("size ", size);
  const int64_t before = (size - 1) / 2, after = size - 1 - before;
  Tensor pads(DT_INT64, TensorShape({rank, 2}));
  pads.flat<int64_t>().setZero();
  pads.flat<int64_t>()(2) = before;
  pads.flat<int64_t>()(3) = after;
  Output sq = c.Op("Pad", {c.Op("Square", {x}), c.Const(pads)});
  std::vector<Output> taps;
  for (int64_t k = 0; k < size; ++k) {
    std::vector<int64_t> begin(rank, 0), end(rank, 0), strides(rank, 1);
    begin[1] = k;
    end[1] = -(size - 1 - k);
    const int64_t mask = ((int64_t{1} << rank) - 1) & ~int64_t{2};
    taps.push_back(c.Op("StridedSlice", {sq, c.Int64s(begin), c.Int64s(end), c.Int64s(strides)},
                        {{"begin_mask", mask}, {"end_mask", end[1] == 0 ? mask | 2 : mask}}));
  }
  Output sum = taps.size() == 1 ? taps[0] : c.Op("AddN", taps);
  const double alpha = c.attrs().f("alpha", 1e-4f), beta = c.attrs().f("beta", 0.75f);
  const double bias = c.attrs().f("bias", 1.f);
  Output scaled =
      c.Op("Add", {ScalarLike(c, x, bias), c.Op("Mul", {ScalarLike(c, x, alpha / size), sum})});
  c.set_output(0, c.Op("Div", {x, c.Op("Pow", {scaled, ScalarLike(c, x, beta)})}));
  return absl::OkStatus();
}

[[maybe_unused]] const bool kConvertNormRegistered = [] {
  auto* r = ConverterRegistry::Global();
  r->Register({"LRN", 1, nullptr, ConvertLrn});
  r->Register({"BatchNormalization", 1, BatchNormSupport, ConvertBatchNorm});
  r->Register({"InstanceNormalization", 1, nullptr, ConvertInstanceNorm});
  r->Register({"LayerNormalization", 17, nullptr, ConvertLayerNorm});
  r->Register({"MeanVarianceNormalization", 9, nullptr, ConvertMeanVarianceNorm});
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
