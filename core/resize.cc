#include "rill/core/resize.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "rill/core/status.h"

namespace rill {
namespace {

struct AxisTaps {
  std::vector<int64_t> index;  // [out * taps]
  std::vector<double> weight;
};

float Scale(bool align_corners, int64_t in, int64_t out) {
  return align_corners && out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                                  : static_cast<float>(in) / static_cast<float>(out);
}

int64_t Bound(int64_t i, int64_t n) { return std::min(n - 1, std::max<int64_t>(0, i)); }

void NearestTap(bool align, bool half, float scale, int64_t o, int64_t in, AxisTaps* t) {
  const float at = half ? (static_cast<float>(o) + 0.5f) * scale : static_cast<float>(o) * scale;
  int64_t i = std::min(
      align ? static_cast<int64_t>(std::lround(at)) : static_cast<int64_t>(std::floor(at)), in - 1);
  if (half) i = std::max<int64_t>(0, i);
  t->index.push_back(i);
  t->weight.push_back(1);
}

void BilinearTaps(bool half, float scale, int64_t o, int64_t in, AxisTaps* t) {
  const float at =
      half ? (static_cast<float>(o) + 0.5f) * scale - 0.5f : static_cast<float>(o) * scale;
  const float fl = std::floor(at);
  const float lerp = at - fl;
  t->index.push_back(std::max<int64_t>(static_cast<int64_t>(fl), 0));
  t->weight.push_back(1.0f - lerp);
  t->index.push_back(std::min<int64_t>(static_cast<int64_t>(std::ceil(at)), in - 1));
  t->weight.push_back(lerp);
}

void BicubicTaps(bool half, float scale, int64_t o, int64_t in, AxisTaps* t) {
  const float at =
      half ? (static_cast<float>(o) + 0.5f) * scale - 0.5f : static_cast<float>(o) * scale;
  const int64_t fl = static_cast<int64_t>(std::floor(at));
  const float x = static_cast<float>(std::lrint((at - static_cast<float>(fl)) * 1024)) / 1024;
  const float a = half ? -0.5f : -0.75f;
  auto near = [a](float v) { return ((a + 2) * v - (a + 3)) * v * v + 1; };       // |v| <= 1
  auto far = [a](float v) { return ((a * v - 5 * a) * v + 8 * a) * v - 4 * a; };  // 1 < |v| < 2
  float w[4] = {far(x + 1), near(x), near(1 - x), far(2 - x)};
  int64_t idx[4];
  float sum = 0;
  for (int k = 0; k < 4; ++k) {
    idx[k] = Bound(fl - 1 + k, in);
    if (half && idx[k] != fl - 1 + k) w[k] = 0;  // outside the image: dropped
    sum += w[k];
  }
  const bool renormalize = half && std::abs(sum) >= 1000 * std::numeric_limits<float>::min();
  for (int k = 0; k < 4; ++k) {
    t->index.push_back(idx[k]);
    t->weight.push_back(renormalize ? w[k] * (1.0f / sum) : w[k]);
  }
}

// Output cell o of an area resize covers [o * scale, (o + 1) * scale) of the input (in
// float, as TensorFlow's); its first and one-past-last input cells.
std::pair<int64_t, int64_t> AreaCover(float scale, int64_t o) {
  const float lo = static_cast<float>(o) * scale, hi = static_cast<float>(o + 1) * scale;
  return {static_cast<int64_t>(std::floor(lo)), static_cast<int64_t>(std::ceil(hi))};
}

// The widest cover of an area resize along an axis: the taps every output cell gets.
int64_t AreaTapCount(bool align, int64_t in, int64_t out) {
  const float scale = Scale(align, in, out);
  int64_t widest = 1;
  for (int64_t o = 0; o < out; ++o) {
    const auto [first, end] = AreaCover(scale, o);
    widest = std::max(widest, end - first);
  }
  return widest;
}

// Each covered cell weighted by the part of it inside the cover, over scale (so that the
// weights of a cover sum to 1), then zero-weight taps up to `taps`.
void AreaTaps(float scale, int64_t o, int64_t in, int64_t taps, AxisTaps* t) {
  const float lo = static_cast<float>(o) * scale, hi = static_cast<float>(o + 1) * scale;
  const auto [first, end] = AreaCover(scale, o);
  for (int64_t i = first; i < first + taps; ++i) {
    double part = 0;
    if (i < end) {
      const double from = std::max<double>(lo, static_cast<double>(i));
      const double to = std::min<double>(hi, static_cast<double>(i + 1));
      part = (to - from) / static_cast<double>(scale);
    }
    t->index.push_back(Bound(i, in));
    t->weight.push_back(part);
  }
}

AxisTaps Axis(ResizeMethod m, bool align, bool half, int64_t in, int64_t out, int64_t taps) {
  AxisTaps t;
  const float scale = Scale(align, in, out);
  for (int64_t o = 0; o < out; ++o) {
    if (m == ResizeMethod::kNearest) NearestTap(align, half, scale, o, in, &t);
    if (m == ResizeMethod::kBilinear) BilinearTaps(half, scale, o, in, &t);
    if (m == ResizeMethod::kBicubic) BicubicTaps(half, scale, o, in, &t);
    if (m == ResizeMethod::kArea) AreaTaps(scale, o, in, taps, &t);
  }
  return t;
}

// Appends the inverse of `t` (in + 1 bounds at *start, then the entries at *list).
void Invert(const AxisTaps& t, int64_t taps, int64_t in, std::vector<int64_t>* ti,
            std::vector<double>* tw, int64_t* start, int64_t* list) {
  std::vector<int64_t> count(in + 1, 0);
  for (int64_t i : t.index) ++count[i + 1];
  for (int64_t r = 0; r < in; ++r) count[r + 1] += count[r];
  *start = static_cast<int64_t>(ti->size());
  ti->insert(ti->end(), count.begin(), count.end());
  tw->resize(ti->size(), 0);
  *list = static_cast<int64_t>(ti->size());
  ti->resize(ti->size() + t.index.size());
  tw->resize(ti->size());
  std::vector<int64_t> fill(count.begin(), count.end() - 1);
  for (size_t k = 0; k < t.index.size(); ++k) {  // in output order: the sums' order
    const int64_t at = *list + fill[t.index[k]]++;
    (*ti)[at] = static_cast<int64_t>(k) / taps;
    (*tw)[at] = t.weight[k];
  }
}

}  // namespace

absl::StatusOr<ResizeTables> MakeResizeTables(ResizeMethod method, bool align_corners,
                                              bool half_pixel_centers, int64_t batch, int64_t in_h,
                                              int64_t in_w, int64_t out_h, int64_t out_w,
                                              int64_t channels) {
  if (align_corners && half_pixel_centers) {
    return errors::InvalidArgument("if half_pixel_centers is true, align_corners must be false");
  }
  if (in_h < 1 || in_w < 1) {
    return errors::InvalidArgument("the image must have a height and width of at least 1, got ",
                                   in_h, "x", in_w);
  }
  if (out_h < 1 || out_w < 1) {
    return errors::InvalidArgument("size must be positive, got [", out_h, ",", out_w, "]");
  }
  ResizeTables r;
  ResizeDims& d = r.dims;
  d = {batch, in_h, in_w, out_h, out_w, channels};
  d.taps = method == ResizeMethod::kNearest ? 1 : method == ResizeMethod::kBilinear ? 2 : 4;
  d.taps_x = d.taps;
  if (method == ResizeMethod::kArea) {  // each axis as wide as its own widest cover
    d.taps = AreaTapCount(align_corners, in_h, out_h);
    d.taps_x = AreaTapCount(align_corners, in_w, out_w);
  }
  const AxisTaps rows = Axis(method, align_corners, half_pixel_centers, in_h, out_h, d.taps);
  const AxisTaps cols = Axis(method, align_corners, half_pixel_centers, in_w, out_w, d.taps_x);
  std::vector<int64_t> ti(rows.index);
  std::vector<double> tw(rows.weight);
  d.col_taps = static_cast<int64_t>(ti.size());
  ti.insert(ti.end(), cols.index.begin(), cols.index.end());
  tw.insert(tw.end(), cols.weight.begin(), cols.weight.end());
  Invert(rows, d.taps, in_h, &ti, &tw, &d.row_start, &d.row_list);
  Invert(cols, d.taps_x, in_w, &ti, &tw, &d.col_start, &d.col_list);
  RILL_ASSIGN_OR_RETURN(
      r.index, Tensor::Create(DT_INT64, TensorShape({static_cast<int64_t>(ti.size())}), nullptr));
  RILL_ASSIGN_OR_RETURN(
      r.weight, Tensor::Create(DT_DOUBLE, TensorShape({static_cast<int64_t>(tw.size())}), nullptr));
  std::copy(ti.begin(), ti.end(), r.index.base<int64_t>());
  std::copy(tw.begin(), tw.end(), r.weight.base<double>());
  return r;
}

namespace {

// Each message starts with TensorFlow's words for it (its tests look for them).
absl::StatusOr<std::pair<int64_t, int64_t>> SizeInput(const Tensor& size) {
  if (size.dims() != 1 || size.NumElements() != 2) {
    return errors::InvalidArgument(
        size.dims() != 1 ? "shape_t must be 1-dimensional" : "shape_t must have two elements",
        ": size must be a 2-element vector [height, width], got shape ",
        size.shape().DebugString());
  }
  return std::make_pair(int64_t{size.base<int32_t>()[0]}, int64_t{size.base<int32_t>()[1]});
}

// `tf_name`: TensorFlow's name for the input in the message.
absl::Status CheckImages(const Tensor& t, const char* what, const char* tf_name) {
  if (t.dims() != 4) {
    const std::string which = std::string(what) == tf_name ? "" : absl::StrCat(" (", what, ")");
    return errors::InvalidArgument(tf_name, " must be 4-dimensional", which,
                                   ": [batch, height, width, channels], got ",
                                   t.shape().DebugString());
  }
  return absl::OkStatus();
}

// A bool attr; false where the op has none (ResizeArea has no half_pixel_centers).
bool Attr(const OpKernelContext& ctx, const char* name) {
  return ctx.node().attrs().contains(name) && ctx.node().attr<bool>(name);
}

// The checks MakeResizeTables makes, before anything is allocated.
absl::Status CheckSizes(const OpKernelContext& ctx, int64_t in_h, int64_t in_w, int64_t out_h,
                        int64_t out_w) {
  if (Attr(ctx, "align_corners") && Attr(ctx, "half_pixel_centers")) {
    return errors::InvalidArgument("if half_pixel_centers is true, align_corners must be false");
  }
  if (in_h < 1 || in_w < 1 || out_h < 1 || out_w < 1) {
    return errors::InvalidArgument(in_h < 1 || in_w < 1 ? "input image must be of non-zero size"
                                                        : "output dimensions must be positive",
                                   ": image sizes must be positive, got ", in_h, "x", in_w,
                                   " resized to ", out_h, "x", out_w);
  }
  return absl::OkStatus();
}

// The tables, once the output is allocated: their size is at most proportional to the
// tensors', so no size asked for allocates more than the tensors do. An empty output
// (no batch or channels) needs none.
absl::StatusOr<ResizeTables> Tables(const OpKernelContext& ctx, ResizeMethod method, int64_t batch,
                                    int64_t in_h, int64_t in_w, int64_t out_h, int64_t out_w,
                                    int64_t channels, bool empty) {
  if (empty) {
    ResizeTables r;
    r.dims = {batch, in_h, in_w, out_h, out_w, channels};
    return r;
  }
  return MakeResizeTables(method, Attr(ctx, "align_corners"), Attr(ctx, "half_pixel_centers"),
                          batch, in_h, in_w, out_h, out_w, channels);
}

}  // namespace

absl::StatusOr<ResizeTables> PrepareResize(OpKernelContext& ctx, ResizeMethod method,
                                           Tensor** out) {
  const Tensor& x = ctx.input(0);
  RILL_RETURN_IF_ERROR(CheckImages(x, "images", "input"));
  RILL_ASSIGN_OR_RETURN(auto size, SizeInput(ctx.input(1)));
  RILL_RETURN_IF_ERROR(CheckSizes(ctx, x.dim_size(1), x.dim_size(2), size.first, size.second));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(
      0, TensorShape({x.dim_size(0), size.first, size.second, x.dim_size(3)}), out));
  return Tables(ctx, method, x.dim_size(0), x.dim_size(1), x.dim_size(2), size.first, size.second,
                x.dim_size(3), (*out)->NumElements() == 0);
}

absl::StatusOr<ResizeTables> PrepareResizeGrad(OpKernelContext& ctx, ResizeMethod method,
                                               Tensor** out) {
  const Tensor& dy = ctx.input(0);
  RILL_RETURN_IF_ERROR(CheckImages(dy, "grads", "input_grad"));
  int64_t in_h, in_w;
  if (method == ResizeMethod::kNearest) {
    RILL_ASSIGN_OR_RETURN(auto size, SizeInput(ctx.input(1)));
    in_h = size.first;
    in_w = size.second;
  } else {
    const Tensor& image = ctx.input(1);
    RILL_RETURN_IF_ERROR(CheckImages(image, "original_image", "original_image"));
    if (image.dim_size(0) != dy.dim_size(0) || image.dim_size(3) != dy.dim_size(3)) {
      return errors::InvalidArgument("grads ", dy.shape().DebugString(), " and original_image ",
                                     image.shape().DebugString(),
                                     " must have the same batch and channels");
    }
    in_h = image.dim_size(1);
    in_w = image.dim_size(2);
  }
  RILL_RETURN_IF_ERROR(CheckSizes(ctx, in_h, in_w, dy.dim_size(1), dy.dim_size(2)));
  RILL_RETURN_IF_ERROR(
      ctx.allocate_output(0, TensorShape({dy.dim_size(0), in_h, in_w, dy.dim_size(3)}), out));
  return Tables(ctx, method, dy.dim_size(0), in_h, in_w, dy.dim_size(1), dy.dim_size(2),
                dy.dim_size(3), (*out)->NumElements() == 0);
}

}  // namespace rill
