// Resize (opset 10 on) and Upsample, as separable per-axis interpolation: for each resized
// axis the importer computes, for every output position, the input positions it reads and
// their weights, following ONNX's reference (onnx/backend/test/case/node/resize.py): map the
// output coordinate back (coordinate_transformation_mode), take the 2 (nearest, linear) or
// 4 (cubic) input positions nearest to it, clamped to the edge, weigh them, and with
// exclude_outside drop the ones outside and renormalize. The axis is then a weighted sum of
// GatherV2s (one gather, no arithmetic, for nearest). tf_crop_and_resize writes
// extrapolation_value where the coordinate falls outside the input. Needs the resized dims
// and the scales or sizes while importing.
#include <algorithm>
#include <cmath>

#include "rill/runtime/onnx/converter.h"
#include "rill/runtime/onnx/layout.h"

namespace rill::onnx::internal {
namespace {

struct ResizeAttrs {
  std::string mode = "nearest";
  std::string transform = "half_pixel";
  std::string nearest = "round_prefer_floor";
  double cubic_a = -0.75;
  bool exclude_outside = false;
  double extrapolation = 0;
};

struct Axis {
  int64_t in = 0, out = 0;
  double scale = 1;  // out / in as ONNX computes it (sizes / input, or the given scale)
  double roi_start = 0, roi_end = 1;
};

// Per output position: taps (input index, weight), and whether it is outside (extrapolated).
struct ResizeTaps {
  std::vector<std::vector<std::pair<int64_t, double>>> taps;
  std::vector<bool> outside;
};

double Original(const ResizeAttrs& a, const Axis& ax, int64_t x, bool* outside) {
  const double out_w = ax.scale * static_cast<double>(ax.in);
  const double n = static_cast<double>(ax.in);
  *outside = false;
  if (a.transform == "align_corners") return out_w == 1 ? 0 : x * (n - 1) / (out_w - 1);
  if (a.transform == "asymmetric") return x / ax.scale;
  if (a.transform == "tf_half_pixel_for_nn") return (x + 0.5) / ax.scale;
  if (a.transform == "tf_crop_and_resize") {
    double o = out_w == 1 ? (ax.roi_end - ax.roi_start) * (n - 1) / 2
                          : x * (ax.roi_end - ax.roi_start) * (n - 1) / (out_w - 1);
    o += ax.roi_start * (n - 1);
    *outside = o < 0 || o > n - 1;
    return o;
  }
  if (a.transform == "pytorch_half_pixel" && out_w == 1) return -0.5;
  return (x + 0.5) / ax.scale - 0.5;  // half_pixel and pytorch_half_pixel
}

std::vector<double> Coeffs(const ResizeAttrs& a, double r) {
  if (a.mode == "linear") return {1 - r, r};
  if (a.mode == "cubic") {
    const double A = a.cubic_a, s = 1 - r;
    return {((A * (r + 1) - 5 * A) * (r + 1) + 8 * A) * (r + 1) - 4 * A,
            ((A + 2) * r - (A + 3)) * r * r + 1, ((A + 2) * s - (A + 3)) * s * s + 1,
            ((A * (s + 1) - 5 * A) * (s + 1) + 8 * A) * (s + 1) - 4 * A};
  }
  if (r == 1) return {0, 1};
  if (a.nearest == "round_prefer_ceil") return {r < 0.5 ? 1. : 0., r >= 0.5 ? 1. : 0.};
  if (a.nearest == "floor") return {1, 0};
  if (a.nearest == "ceil") return {0, 1};
  return {r <= 0.5 ? 1. : 0., r > 0.5 ? 1. : 0.};  // round_prefer_floor
}

ResizeTaps AxisTaps(const ResizeAttrs& a, const Axis& ax) {
  ResizeTaps t;
  for (int64_t x = 0; x < ax.out; ++x) {
    bool outside = false;
    const double o = Original(a, ax, x, &outside);
    const double fl = std::floor(o);
    const double ratio = o == fl ? 1 : o - fl;
    std::vector<double> w = Coeffs(a, ratio);
    const int64_t k = static_cast<int64_t>(w.size());
    // The k positions nearest to o (ties to the smaller): fl - k/2 + 1 .. fl + k/2, or one
    // lower when o is a whole number (ratio 1).
    int64_t first = static_cast<int64_t>(fl) - k / 2 + 1 - (o == fl ? 1 : 0);
    std::vector<std::pair<int64_t, double>> taps;
    double kept = 0;
    for (int64_t i = 0; i < k; ++i) {
      const int64_t pos = first + i;
      const bool in = pos >= 0 && pos < ax.in;
      if (a.exclude_outside && !in) continue;
      kept += w[i];
      taps.push_back({std::clamp<int64_t>(pos, 0, ax.in - 1), w[i]});
    }
    if (a.exclude_outside && kept != 0) {
      for (auto& tw : taps) tw.second /= kept;
    }
    t.taps.push_back(taps);
    t.outside.push_back(outside);
  }
  return t;
}

// A constant of x's dtype along `axis` of a rank-`rank` tensor: shape [1, .., n, .., 1].
Output AlongAxis(const NodeContext& c, DataType dt, const std::vector<double>& v, int64_t axis,
                 int64_t rank) {
  std::vector<int64_t> shape(rank, 1);
  shape[axis] = static_cast<int64_t>(v.size());
  Tensor t(dt, TensorShape(shape));
  for (size_t i = 0; i < v.size(); ++i) {
    if (dt == DT_DOUBLE) {
      t.flat<double>()(i) = v[i];
    } else {
      t.flat<float>()(i) = static_cast<float>(v[i]);
    }
  }
  return c.Const(t);
}

// x resized along `axis` by its taps.
Output ResizeAxis(const NodeContext& c, const Output& x, const ResizeTaps& t, int64_t axis,
                  int64_t rank, bool nearest) {
  size_t k = 0;
  for (const auto& taps : t.taps) k = std::max(k, taps.size());
  Output sum;
  for (size_t j = 0; j < k; ++j) {
    std::vector<int64_t> idx;
    std::vector<double> w;
    for (const auto& taps : t.taps) {
      const bool has = j < taps.size();
      idx.push_back(has ? taps[j].first : 0);
      w.push_back(has ? taps[j].second : 0);
    }
    if (nearest) {  // the one tap of weight 1
      for (size_t p = 0; p < t.taps.size(); ++p) {
        for (const auto& [i, wt] : t.taps[p]) {
          if (wt != 0) idx[p] = i;
        }
      }
      return c.Op("GatherV2", {x, c.Int64s(idx), c.Const(Tensor(axis))});
    }
    Output g = c.Op("GatherV2", {x, c.Int64s(idx), c.Const(Tensor(axis))});
    Output term = c.Op("Mul", {g, AlongAxis(c, x.type(), w, axis, rank)});
    sum = sum.node() == nullptr ? term : c.Op("Add", {sum, term});
  }
  return sum;
}

// Whether resizing by `scale` reads input floor(x / scale) for every output x, whatever the
// input's length: a whole scale and a coordinate map of slope 1 / scale (so the pattern
// seen on one length holds for all), checked on the taps themselves.
bool RepeatsElements(const ResizeAttrs& a, double scale) {
  if (a.mode != "nearest" || scale < 1 || scale != std::floor(scale) || scale > 4096) return false;
  if (a.transform == "align_corners" || a.transform == "tf_crop_and_resize") return false;
  ResizeAttrs rule = a;
  if (rule.nearest == "simple") rule.nearest = "floor";
  const int64_t s = static_cast<int64_t>(scale);
  Axis ax;
  ax.in = 8;
  ax.out = 8 * s;
  ax.scale = scale;
  ResizeTaps t = AxisTaps(rule, ax);
  for (int64_t x = 0; x < ax.out; ++x) {
    int64_t read = -1;
    for (const auto& [i, w] : t.taps[x]) {
      if (w != 0) read = i;
    }
    if (read != x / s || t.outside[x]) return false;
  }
  return true;
}

// x with each element of `axis` repeated s times (any length, known or not).
Output Repeat(const NodeContext& c, const Output& x, int64_t axis, int64_t rank, int64_t s) {
  Output e = c.Op("ExpandDims", {x, c.Const(Tensor(axis + 1))});
  std::vector<int64_t> tile(rank + 1, 1), grow(rank, 1);
  tile[axis + 1] = s;
  grow[axis] = s;
  Output shape = c.Op("Mul", {ShapeOf(c, x), c.Int64s(grow)});
  return c.Op("Reshape", {c.Op("Tile", {e, c.Int64s(tile)}), shape});
}

std::string ResizeSupport(const SupportView& v) {
  const std::string mode = v.attrs.s("mode", "nearest");
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return absl::StrCat("mode '", mode, "'");
  const std::string t = v.attrs.s("coordinate_transformation_mode", "half_pixel");
  for (const char* known : {"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
                            "tf_half_pixel_for_nn", "tf_crop_and_resize"}) {
    if (t == known) return "";
  }
  return absl::StrCat("coordinate_transformation_mode '", t, "'");
}

absl::StatusOr<std::vector<double>> ConstDoubles(const NodeContext& c, int i, const char* what) {
  const Tensor* t = c.constant_input(i);
  if (t == nullptr) return c.Error(what, " must be known when the model is imported");
  std::vector<double> v;
  for (int64_t k = 0; k < t->NumElements(); ++k) {
    switch (t->dtype()) {
      case DT_FLOAT:
        v.push_back(t->flat<float>()(k));
        break;
      case DT_DOUBLE:
        v.push_back(t->flat<double>()(k));
        break;
      case DT_INT64:
        v.push_back(static_cast<double>(t->flat<int64_t>()(k)));
        break;
      default:
        return c.Error(what, " has dtype ", DataTypeString(t->dtype()));
    }
  }
  return v;
}

// The attributes with the opset's defaults: before 11, asymmetric coordinates and ONNX
// Runtime's nearest rule (floor when upsampling, ceil when downsampling).
ResizeAttrs AttrsOf(const NodeContext& c) {
  ResizeAttrs a;
  a.mode = c.attrs().s("mode", "nearest");
  if (c.opset() < 11 || c.node().op_type() == "Upsample") {
    a.transform = "asymmetric";
    a.nearest = "simple";
    return a;
  }
  a.transform = c.attrs().s("coordinate_transformation_mode", "half_pixel");
  a.nearest = c.attrs().s("nearest_mode", "round_prefer_floor");
  a.cubic_a = c.attrs().f("cubic_coeff_a", -0.75f);
  a.exclude_outside = c.attrs().i("exclude_outside", 0) != 0;
  a.extrapolation = c.attrs().f("extrapolation_value", 0.f);
  return a;
}

// Scales, sizes and roi from the opset's inputs or attributes.
absl::Status ResizeInputs(const NodeContext& c, std::vector<double>* scales,
                          std::vector<double>* sizes, std::vector<double>* roi) {
  if (c.node().op_type() == "Upsample" && c.opset() < 9) {
    for (float f : c.attrs().floats("scales")) scales->push_back(f);
    return absl::OkStatus();
  }
  if (c.node().op_type() == "Upsample" || c.opset() < 11) {
    RILL_ASSIGN_OR_RETURN(*scales, ConstDoubles(c, 1, "scales"));
    return absl::OkStatus();
  }
  auto given = [&](int i) {
    const Tensor* t = c.constant_input(i);
    return c.has_input(i) && (t == nullptr || t->NumElements() > 0);
  };
  if (given(1)) {
    RILL_ASSIGN_OR_RETURN(*roi, ConstDoubles(c, 1, "roi"));
  }
  if (given(2)) {
    RILL_ASSIGN_OR_RETURN(*scales, ConstDoubles(c, 2, "scales"));
  }
  if (given(3)) {
    RILL_ASSIGN_OR_RETURN(*sizes, ConstDoubles(c, 3, "sizes"));
  }
  return absl::OkStatus();
}

absl::Status ConvertResize(NodeContext& c) {
  Output x = c.input(0);
  const int64_t rank = RankOf(x);
  // A channels-last twin resizes along the same dims, at their NHWC positions.
  const bool twin = rank == 4 && c.nhwc_input(0).node() != nullptr;
  if (twin) x = c.nhwc_input(0);
  auto at = [&](int64_t d) { return twin ? NhwcAxis(d) : d; };
  if (rank < 1) return c.Error("the input's rank is not known");
  ResizeAttrs a = AttrsOf(c);
  std::vector<double> scales, sizes, roi;
  RILL_RETURN_IF_ERROR(ResizeInputs(c, &scales, &sizes, &roi));
  const std::vector<double>& given = sizes.empty() ? scales : sizes;
  if (static_cast<int64_t>(given.size()) != rank) return c.Error("need one scale or size per dim");
  if (a.mode != "nearest" && x.type() != DT_FLOAT && x.type() != DT_DOUBLE) {
    return c.Error(a.mode, " resizing needs float or double, got ", DataTypeString(x.type()));
  }
  Output outside;  // where tf_crop_and_resize extrapolates
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t in = x.shape().dim_size(static_cast<int>(at(d)));
    const bool moves = a.transform == "tf_crop_and_resize" || a.transform == "tf_half_pixel_for_nn";
    if (sizes.empty() && scales[d] == 1 && !moves) continue;
    if (in < 0) {  // known only at run time: an integer nearest upsampling may repeat
      if (!sizes.empty() || !RepeatsElements(a, scales[d])) {
        return c.Error("dim ", d, " of the input is not known (only a nearest resize by a whole ",
                       "scale that repeats each element can have unknown dims)");
      }
      x = Repeat(c, x, at(d), rank, static_cast<int64_t>(scales[d]));
      continue;
    }
    Axis ax;
    ax.in = in;
    if (!sizes.empty()) {
      if (!(sizes[d] >= 0 && sizes[d] <= static_cast<double>(kMaxImportTable))) {
        return c.Error("size ", sizes[d], " for dim ", d);
      }
      ax.out = static_cast<int64_t>(sizes[d]);
      ax.scale = static_cast<double>(ax.out) / static_cast<double>(in);
    } else {
      if (!(scales[d] > 0) || scales[d] * in > static_cast<double>(kMaxImportTable))
        return c.Error("scale ", scales[d]);
      ax.scale = scales[d];
      ax.out = static_cast<int64_t>(std::floor(in * scales[d]));
    }
    if (ax.out < 0 || ax.out > kMaxImportTable || in == 0) return c.Error("output size ", ax.out);
    if (ax.out == in && ax.scale == 1 && !moves) continue;
    if (static_cast<int64_t>(roi.size()) == 2 * rank) {
      ax.roi_start = roi[d];
      ax.roi_end = roi[rank + d];
    }
    ResizeAttrs axis_attrs = a;
    if (a.nearest == "simple") axis_attrs.nearest = ax.scale < 1 ? "ceil" : "floor";
    ResizeTaps t = AxisTaps(axis_attrs, ax);
    x = ResizeAxis(c, x, t, at(d), rank, a.mode == "nearest");
    if (std::find(t.outside.begin(), t.outside.end(), true) != t.outside.end()) {
      std::vector<int64_t> shape(rank, 1);
      shape[at(d)] = ax.out;
      Tensor m(DT_BOOL, TensorShape(shape));
      for (int64_t i = 0; i < ax.out; ++i) m.flat<bool>()(i) = t.outside[i];
      outside = outside.node() == nullptr ? c.Const(m) : c.Op("LogicalOr", {outside, c.Const(m)});
    }
  }
  if (outside.node() != nullptr) {
    x = c.Op("SelectV2", {outside, ScalarLike(c, x, a.extrapolation), x});
  }
  if (twin) {
    SetChannelsLast(c, 0, x);
    return absl::OkStatus();
  }
  c.set_output(0, c.Op("Identity", {x}));
  return absl::OkStatus();
}

// GridSample (opset 16, 2-D): rill's GridSample, which has ONNX's rules; the grid takes
// X's dtype. opset 20 renamed the modes (linear, cubic) and allows N-D; the 2-D ones are
// mapped.
std::string GridSampleSupport(const SupportView& v) {
  const int64_t rank = v.rank(0);
  return rank >= 0 && rank != 4 ? absl::StrCat("a ", rank, "-D X (rill samples 2-D images)") : "";
}

absl::Status ConvertGridSample(NodeContext& c) {
  const Output x = c.input(0);
  Output grid = c.input(1);
  if (grid.type() != x.type()) grid = c.Op("Cast", {grid}, {{"DstT", x.type()}});
  std::string mode = c.attrs().s("mode", "bilinear");
  if (mode == "linear") mode = "bilinear";
  if (mode == "cubic") mode = "bicubic";
  c.set_output(0, c.Op("GridSample", {x, grid},
                       {{"mode", mode},
                        {"padding_mode", c.attrs().s("padding_mode", "zeros")},
                        {"align_corners", c.attrs().i("align_corners", 0) != 0}}));
  return absl::OkStatus();
}

// RoiAlign: rill's RoiAlign, which has ONNX's rules; opset 10 had no
// coordinate_transformation_mode and computed as output_half_pixel does. rois take X's
// dtype; batch_indices are int64.
absl::Status ConvertRoiAlign(NodeContext& c) {
  const Output x = c.input(0);
  Output rois = c.input(1), batch = c.input(2);
  if (rois.type() != x.type()) rois = c.Op("Cast", {rois}, {{"DstT", x.type()}});
  if (batch.type() != DT_INT64) batch = c.Op("Cast", {batch}, {{"DstT", DT_INT64}});
  const std::string transform = c.attrs().s("coordinate_transformation_mode",
                                            c.opset() >= 16 ? "half_pixel" : "output_half_pixel");
  c.set_output(0, c.Op("RoiAlign", {x, rois, batch},
                       {{"mode", c.attrs().s("mode", "avg")},
                        {"output_height", c.attrs().i("output_height", 1)},
                        {"output_width", c.attrs().i("output_width", 1)},
                        {"sampling_ratio", c.attrs().i("sampling_ratio", 0)},
                        {"spatial_scale", c.attrs().f("spatial_scale", 1.0f)},
                        {"coordinate_transformation_mode", transform}}));
  return absl::OkStatus();
}

[[maybe_unused]] const bool kConvertResizeRegistered = [] {
  auto* r = ConverterRegistry::Global();
  r->Register({"RoiAlign", 10, nullptr, ConvertRoiAlign});
  r->Register({"GridSample", 16, GridSampleSupport, ConvertGridSample});
  r->Register({"Resize", 10, ResizeSupport, ConvertResize, {1, 2, 3}});
  r->Register({"Upsample", 7, ResizeSupport, ConvertResize, {1}});
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
