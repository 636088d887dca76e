// ResizeArea and its gradient: covers by hand (a shrink by 4/3, a doubling, align_corners'
// scale), a float64 reference of the definition written here over sizes that shrink one
// axis a lot and grow the other, the gradient against central differences, and op cases
// for GPU parity.
#include <algorithm>
#include <cmath>

#include "gradient_checker.h"
#include "rill/ops/image_ops.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace resize_area_test {

MarkTested tested({"ResizeArea", "_ResizeAreaGrad"});

BuildFn Area(int32_t h, int32_t w, bool align = false) {
  return [h, w, align](const Scope& s, const std::vector<Output>& in) {
    return Output(
        ops::ResizeArea(s, in[0], ops::Const(s, {h, w}), ops::ResizeArea::AlignCorners(align)));
  };
}

// out[y, x] = sum over the cells [y s, (y + 1) s) x [x t, (x + 1) t) covers, each times the
// part covered, over s t (indices past the image read its last cell).
std::vector<double> Reference(const Tensor& image, int64_t oh, int64_t ow) {
  const std::vector<double> v = ToDoubles(image);
  const int64_t n = image.dim_size(0), h = image.dim_size(1), w = image.dim_size(2),
                c = image.dim_size(3);
  const double s = static_cast<float>(h) / static_cast<float>(oh);
  const double t = static_cast<float>(w) / static_cast<float>(ow);
  auto part = [](int64_t i, double lo, double hi) {
    return std::max(0.0, std::min(hi, i + 1.0) - std::max(lo, static_cast<double>(i)));
  };
  std::vector<double> out;
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t y = 0; y < oh; ++y) {
      for (int64_t x = 0; x < ow; ++x) {
        for (int64_t k = 0; k < c; ++k) {
          double sum = 0;
          for (int64_t i = static_cast<int64_t>(std::floor(y * s)); i < std::ceil((y + 1) * s);
               ++i) {
            for (int64_t j = static_cast<int64_t>(std::floor(x * t)); j < std::ceil((x + 1) * t);
                 ++j) {
              const int64_t ii = std::min(i, h - 1), jj = std::min(j, w - 1);
              sum += part(i, y * s, (y + 1) * s) * part(j, x * t, (x + 1) * t) *
                     v[((b * h + ii) * w + jj) * c + k];
            }
          }
          out.push_back(sum / (s * t));
        }
      }
    }
  }
  return out;
}

TEST(ResizeArea, CoversByHand) {
  const Tensor row = FromDoubles(DT_FLOAT, {1, 1, 4, 1}, {1, 2, 3, 4});
  auto got = RunOp(Area(1, 3), {row});  // out[0] = (1 + 2/3) 3/4, ...
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {1, 1, 3, 1}, {1.25, 2.5, 3.75}, 1e-6);
  got = RunOp(Area(1, 8), {row});  // growing: each cell read whole, twice
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {1, 1, 8, 1}, {1, 1, 2, 2, 3, 3, 4, 4}, 1e-6);
  // align_corners: scale (4 - 1) / (2 - 1) = 3; the second cover reads past the edge.
  got = RunOp(Area(1, 2, true), {FromDoubles(DT_UINT8, {1, 1, 4, 1}, {3, 6, 9, 12})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {1, 1, 2, 1}, {6, 12}, 1e-6);
}

TEST(ResizeArea, MatchesTheDefinition) {
  struct Size {
    int64_t h, w, oh, ow;
  };
  for (const Size z : {Size{5, 7, 2, 3}, Size{8, 3, 3, 8}, Size{233, 2, 3, 5}, Size{1, 20, 1, 7},
                       Size{100, 165, 50, 26}}) {
    SCOPED_TRACE(::testing::PrintToString(std::vector<int64_t>{z.h, z.w, z.oh, z.ow}));
    const Tensor image = RandomTensor(DT_FLOAT, {2, z.h, z.w, 3}, -1, 1, 9);
    auto got = RunOp(Area(static_cast<int32_t>(z.oh), static_cast<int32_t>(z.ow)), {image});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, DT_FLOAT, {2, z.oh, z.ow, 3}, Reference(image, z.oh, z.ow), 1e-5);
  }
}

// The output is float32 whatever the input: a step of 1e-2 (exact for a linear map) keeps
// its rounding small against the step.
TEST(ResizeArea, GradientMatchesNumeric) {
  GradCheckOptions opt;
  opt.delta = 1e-2;
  for (bool align : {false, true}) {
    for (DataType dt : {DT_DOUBLE, DT_FLOAT}) {
      for (bool known : {true, false}) {
        opt.known_shapes = known;
        auto err = GradientError(Area(2, 5, align),
                                 {RandomTensor(DT_DOUBLE, {1, 5, 3, 2}, -1, 1, 10)}, dt, opt);
        ASSERT_TRUE(err.ok()) << err.status();
        EXPECT_LT(*err, 1e-4);
      }
    }
  }
}

const bool kMarked = [] {
  GradTestedOps().insert({"ResizeArea"});
  return true;
}();

std::vector<OpCase> Cases() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_UINT8, DT_INT32}) {
    const Tensor image = RandomTensor(dt, {2, 37, 23, 3}, 0, 9, 11);
    c.push_back({"ResizeArea shrink " + DataTypeString(dt), Area(10, 7), {image}});
    c.push_back({"ResizeArea grow " + DataTypeString(dt), Area(50, 41), {image}});
  }
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    c.push_back({"_ResizeAreaGrad " + DataTypeString(dt),
                 [](const Scope& s, const std::vector<Output>& in) {
                   // grads are float32 always (the reference widens them).
                   return Output(ops::internal::NodeBuilder(s, "_ResizeAreaGrad")
                                     .Input(ops::Cast(s, in[0], DT_FLOAT))
                                     .Input(in[1])
                                     .Finalize()
                                     .node());
                 },
                 {RandomTensor(DT_FLOAT, {2, 10, 7, 3}, -1, 1, 12),
                  RandomTensor(dt, {2, 37, 23, 3}, -1, 1, 13)}});
  }
  return c;
}

}  // namespace resize_area_test
}  // namespace

RILL_OP_CASES(resize_area, resize_area_test::Cases);

}  // namespace rill::testing
