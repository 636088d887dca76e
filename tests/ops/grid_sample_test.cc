// GridSample (ONNX's grid_sample): an identity grid in each mode, interpolation between
// pixels, each padding at a point past the edge, nearest's ties to even, and NaN, infinite
// and huge grid points (no index is formed from them). ONNX's own cases run in
// tests/onnx (onnx.conformance.node).
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "rill/ops/grid_sample_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace grid_sample_test {

MarkTested tested({"GridSample"});

using Ins = std::vector<Output>;

std::vector<double> Sample(const Tensor& x, const Tensor& grid, const ops::GridSample::Attrs& a) {
  auto got =
      RunOp([&](const Scope& s, const Ins& in) { return ops::GridSample(s, in[0], in[1], a); },
            {x, grid});
  EXPECT_TRUE(got.ok()) << got.status();
  return got.ok() ? ToDoubles(*got) : std::vector<double>();
}

TEST(GridSample, AnIdentityGridGivesTheImageInEveryMode) {
  // 2 x 3 pixels; with align_corners the grid's -1 and 1 are the corner pixels' centers.
  const Tensor x = FromDoubles(DT_DOUBLE, {1, 1, 2, 3}, {1, 2, 3, 4, 5, 6});
  const Tensor grid =
      FromDoubles(DT_DOUBLE, {1, 2, 3, 2}, {-1, -1, 0, -1, 1, -1, -1, 1, 0, 1, 1, 1});
  for (const char* mode : {"bilinear", "nearest", "bicubic"}) {
    SCOPED_TRACE(mode);
    EXPECT_EQ(Sample(x, grid, ops::GridSample::Mode(mode).AlignCorners(true)),
              (std::vector<double>{1, 2, 3, 4, 5, 6}));
  }
}

TEST(GridSample, InterpolatesAndPadsAsOnnx) {
  const Tensor x = FromDoubles(DT_FLOAT, {1, 1, 2, 2}, {0, 10, 20, 30});
  // The middle of four pixels (align_corners: grid 0 is between them).
  EXPECT_EQ(
      Sample(x, FromDoubles(DT_FLOAT, {1, 1, 1, 2}, {0, 0}), ops::GridSample::AlignCorners(true)),
      (std::vector<double>{15}));
  // One pixel of 4; grid (-1, 0) without align_corners is x = -0.5: half a pixel outside.
  const Tensor one = FromDoubles(DT_FLOAT, {1, 1, 1, 1}, {4});
  const Tensor edge = FromDoubles(DT_FLOAT, {1, 1, 1, 2}, {-1, 0});
  EXPECT_EQ(Sample(one, edge, ops::GridSample::PaddingMode("zeros")), (std::vector<double>{2}));
  EXPECT_EQ(Sample(one, edge, ops::GridSample::PaddingMode("border")), (std::vector<double>{4}));
  EXPECT_EQ(Sample(one, edge, ops::GridSample::PaddingMode("reflection")),
            (std::vector<double>{4}));
  // Nearest rounds half to even: x = 1.5 reads pixel 2, x = 0.5 pixel 0.
  const Tensor ties = FromDoubles(DT_DOUBLE, {1, 1, 2, 2}, {0, 0, -2.0 / 3, 0});
  EXPECT_EQ(Sample(FromDoubles(DT_DOUBLE, {1, 1, 1, 4}, {10, 20, 30, 40}), ties,
                   ops::GridSample::Mode("nearest").AlignCorners(true)),
            (std::vector<double>{30, 10}));
  // Bicubic weights sum to 1: a flat image stays flat (border padding: taps past the edge
  // read the edge).
  const Tensor flat = FromDoubles(DT_DOUBLE, {1, 2, 4, 4}, std::vector<double>(32, 7));
  for (double v : Sample(flat, FromDoubles(DT_DOUBLE, {1, 1, 2, 2}, {0.1, -0.2, 0.3, 0.05}),
                         ops::GridSample::Mode("bicubic").PaddingMode("border"))) {
    EXPECT_NEAR(v, 7, 1e-12);
  }
}

TEST(GridSample, NonFiniteAndHugePointsFormNoIndex) {
  const Tensor x = FromDoubles(DT_FLOAT, {1, 1, 2, 2}, {1, 2, 3, 4});
  const double inf = std::numeric_limits<double>::infinity();
  const Tensor grid = FromDoubles(DT_FLOAT, {1, 1, 3, 2}, {std::nan(""), 0, inf, 0, 1e30, -1e30});
  const std::vector<double> zeros = Sample(x, grid, ops::GridSample::Attrs());
  EXPECT_TRUE(std::isnan(zeros[0]));
  EXPECT_EQ(zeros[1], 0);
  EXPECT_EQ(zeros[2], 0);
  const std::vector<double> border = Sample(x, grid, ops::GridSample::PaddingMode("border"));
  EXPECT_EQ(border[1], 3);  // x clamped to the last column (2, 4), y halfway
  const std::vector<double> reflected =
      Sample(x, grid, ops::GridSample::PaddingMode("reflection").Mode("bicubic"));
  EXPECT_TRUE(std::isnan(reflected[1]));  // an infinity has no reflection
  EXPECT_TRUE(std::isfinite(reflected[2]));
}

}  // namespace grid_sample_test
}  // namespace
}  // namespace rill::testing
