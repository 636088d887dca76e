// The cases of TensorFlow's
// tensorflow/core/kernels/image/resize_nearest_neighbor_op_test.cc, which drive
// ResizeNearestNeighbor through OpsTestBase (runtime/testing/ops_testutil.h), rewritten
// against rill (their inputs and expected values are TensorFlow's; the code is ours), on
// the CPU (the op tester holds the GPU kernel to the CPU's).
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace resize_nearest_neighbor_op_test {

enum class Mode { kLegacy, kHalfPixelCenters, kAlignCorners };

struct Case {
  std::string name;
  Mode mode;
  TensorShape in;
  std::vector<float> pixels;
  int out_h, out_w;
  std::vector<float> want;
};

const TensorShape k2x2({1, 2, 2, 1}), k3x3({1, 3, 3, 1}), k4x4({1, 4, 4, 1});
const TensorShape k2x2x2x2({2, 2, 2, 2});
const std::vector<float> k1to4 = {1, 2, 3, 4}, k1to9 = {1, 2, 3, 4, 5, 6, 7, 8, 9};
const std::vector<float> k1to16 = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
const std::vector<float> kPairs = {1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8};

std::vector<Case> Cases() {
  const Mode L = Mode::kLegacy, H = Mode::kHalfPixelCenters, A = Mode::kAlignCorners;
  return {
      {"TestNearest2x2To1x1", L, k2x2, k1to4, 1, 1, {1}},
      {"TestNearest2x2AlignCornersTo1x1", A, k2x2, k1to4, 1, 1, {1}},
      {"TestNearest2x2To3x3", L, k2x2, k1to4, 3, 3, {1, 1, 2, 1, 1, 2, 3, 3, 4}},
      {"TestNearestAlignCorners2x2To3x3", A, k2x2, k1to4, 3, 3, {1, 2, 2, 3, 4, 4, 3, 4, 4}},
      {"TestNearest3x3To2x2", L, k3x3, k1to9, 2, 2, {1, 2, 4, 5}},
      {"TestNearestAlignCorners3x3To2x2", A, k3x3, k1to9, 2, 2, {1, 3, 7, 9}},
      {"TestNearest2x2To2x5", L, k2x2, k1to4, 2, 5, {1, 1, 1, 2, 2, 3, 3, 3, 4, 4}},
      {"TestNearestNeighbor4x4To3x3", L, k4x4, k1to16, 3, 3, {1, 2, 3, 5, 6, 7, 9, 10, 11}},
      {"TestNearestNeighborAlignCorners4x4To3x3",
       A,
       k4x4,
       k1to16,
       3,
       3,
       {1, 3, 4, 9, 11, 12, 13, 15, 16}},
      {"TestNearest2x2To5x2", L, k2x2, k1to4, 5, 2, {1, 2, 1, 2, 1, 2, 3, 4, 3, 4}},
      {"TestNearest2x2To4x4",
       L,
       k2x2,
       k1to4,
       4,
       4,
       {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}},
      {"TestNearest2x2x2x2To2x3x3x2", L, k2x2x2x2, kPairs, 3, 3, {1, 1, 1, 1, 2, 2, 1, 1, 1,
                                                                  1, 2, 2, 3, 3, 3, 3, 4, 4,
                                                                  5, 5, 5, 5, 6, 6, 5, 5, 5,
                                                                  5, 6, 6, 7, 7, 7, 7, 8, 8}},
      {"HalfPixelCenters_TestNearest5x2To2x2",
       H,
       TensorShape({1, 2, 5, 1}),
       {1, 2, 3, 4, 5, 1, 2, 3, 4, 5},
       2,
       2,
       {2, 4, 2, 4}},
      {"HalfPixelCenters_TestNearest2x2To1x1", H, k2x2, k1to4, 1, 1, {4}},
      {"HalfPixelCenters_TestNearest2x2To3x3", H, k2x2, k1to4, 3, 3, {1, 2, 2, 3, 4, 4, 3, 4, 4}},
      {"HalfPixelCenters_TestNearest3x3To2x2", H, k3x3, k1to9, 2, 2, {1, 3, 7, 9}},
      {"HalfPixelCenters_TestNearest2x2To2x5",
       H,
       k2x2,
       k1to4,
       2,
       5,
       {1, 1, 2, 2, 2, 3, 3, 4, 4, 4}},
      {"HalfPixelCenters_TestNearestNeighbor4x4To3x3",
       H,
       k4x4,
       k1to16,
       3,
       3,
       {1, 3, 4, 9, 11, 12, 13, 15, 16}},
      {"HalfPixelCenters_TestNearest2x2To5x2",
       H,
       k2x2,
       k1to4,
       5,
       2,
       {1, 2, 1, 2, 3, 4, 3, 4, 3, 4}},
      {"HalfPixelCenters_TestNearest2x2To4x4",
       H,
       k2x2,
       k1to4,
       4,
       4,
       {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}},
      {"HalfPixelCenters_TestNearest2x2x2x2To2x3x3x2",
       H,
       k2x2x2x2,
       kPairs,
       3,
       3,
       {1, 1, 2, 2, 2, 2, 3, 3, 4, 4, 4, 4, 3, 3, 4, 4, 4, 4,
        5, 5, 6, 6, 6, 6, 7, 7, 8, 8, 8, 8, 7, 7, 8, 8, 8, 8}},
  };
}

class ResizeNearestNeighborOpTest : public OpsTestBase {};

TEST_F(ResizeNearestNeighborOpTest, EveryCase) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    TF_ASSERT_OK(NodeDefBuilder("resize_nn_op", "ResizeNearestNeighbor")
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_INT32))
                     .Attr("align_corners", c.mode == Mode::kAlignCorners)
                     .Attr("half_pixel_centers", c.mode == Mode::kHalfPixelCenters)
                     .Finalize(node_def()));
    TF_ASSERT_OK(InitOp());
    inputs_.clear();
    AddInputFromArray<float>(c.in, c.pixels);
    AddInputFromArray<int32_t>(TensorShape({2}), {c.out_h, c.out_w});
    TF_ASSERT_OK(RunOpKernel());
    test::ExpectTensorEqual<float>(
        *GetOutput(0),
        test::AsTensor<float>(c.want, {c.in.dim_size(0), c.out_h, c.out_w, c.in.dim_size(3)}));
  }
}

}  // namespace resize_nearest_neighbor_op_test
}  // namespace
}  // namespace rill
