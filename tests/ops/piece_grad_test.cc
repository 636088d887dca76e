// The gradients of Tile, ReverseV2, Reverse, Pack, Unpack, Split, SplitV, Select and SelectV2
// against central differences, with input shapes known at construction and unknown (Tile's two
// formulations: folding replicas dim by dim, and TensorFlow's [m0, n0, m1, n1, ...] view).
#include <cmath>

#include "gradient_checker.h"
#include "rill/ops/gather_ops.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/piece_ops.h"
#include "rill/ops/select_ops.h"

namespace rill::testing {
namespace {
namespace piece_grad_test {

using namespace ::rill::ops;  // NOLINT
using Xs = std::vector<Output>;

Tensor Vals(const TensorShape& shape, uint32_t seed) {
  return RandomTensor(DT_DOUBLE, shape, -1, 1, seed);
}
Output Ints(const Scope& s, std::vector<int32_t> v) {
  Tensor t(DT_INT32, TensorShape({static_cast<int64_t>(v.size())}));
  for (size_t i = 0; i < v.size(); ++i) t.base<int32_t>()[i] = v[i];
  return Const(s, t);
}
Output Bools(const Scope& s, const TensorShape& shape, std::vector<double> v) {
  return Const(s, FromDoubles(DT_BOOL, shape, v));
}

struct Case {
  std::string op;
  GradBuildFn build;
  std::vector<Tensor> inputs;
};

std::vector<Case> Cases() {
  return {
      {"Tile",
       [](const Scope& s, const Xs& in) {
         return Output(Tile(s, in[0], Ints(s, {2, 1, 3})));
       },
       {Vals({2, 3, 2}, 1)}},
      {"ReverseV2",
       [](const Scope& s, const Xs& in) {
         return Output(Mul(s, Reverse(s, in[0], Ints(s, {0, -1})), in[0]));
       },
       {Vals({2, 3, 2}, 9)}},
      // TensorFlow's first Reverse, its dims a flag per dim.
      {"Reverse",
       [](const Scope& s, const Xs& in) {
         Output r(internal::NodeBuilder(s, "Reverse")
                      .Input(in[0])
                      .Input(Bools(s, {3}, {1, 0, 1}))
                      .Finalize()
                      .node());
         return Output(Mul(s, r, in[0]));
       },
       {Vals({2, 3, 2}, 19)}},
      {"Pack",
       [](const Scope& s, const Xs& in) {
         return Output(Stack(s, {in[0], in[1]}, Stack::Axis(1)));
       },
       {Vals({2, 3}, 2), Vals({2, 3}, 3)}},
      // Piece 1 unused: its gradient is zeros.
      {"Unpack",
       [](const Scope& s, const Xs& in) {
         Unstack p(s, in[0], 3, Unstack::Axis(-1));
         return Output(Stack(s, {Mul(s, p[2], p[0]), p[0]}));
       },
       {Vals({2, 3}, 4)}},
      {"Split",
       [](const Scope& s, const Xs& in) {
         Split p(s, Const(s, 1), in[0], 3);
         return Output(Concat(s, {Mul(s, p[2], p[2]), p[0]}, 0));
       },
       {Vals({2, 6}, 5)}},
      {"SplitV",
       [](const Scope& s, const Xs& in) {
         SplitV p(s, in[0], Ints(s, {1, -1, 2}), Const(s, 0), 3);
         return Output(Concat(s, {Mul(s, p[1], p[1]), p[2]}, 0));
       },
       {Vals({6, 2}, 6)}},
      {"Select",
       [](const Scope& s, const Xs& in) {
         return Output(Select(s, Bools(s, {3}, {1, 0, 1}), Mul(s, in[0], in[0]), in[1]));
       },
       {Vals({3, 2}, 7), Vals({3, 2}, 8)}},
      {"SelectV2",
       [](const Scope& s, const Xs& in) {
         return Output(SelectV2(s, Bools(s, {2, 3}, {1, 0, 1, 0, 0, 1}), in[0], in[1]));
       },
       {Vals({3}, 9), Vals({2, 1}, 10)}},
      // Repeated indices sum into their row.
      {"Gather",
       [](const Scope& s, const Xs& in) {
         return Output(Gather(s, in[0], Ints(s, {2, 0, 2})));
       },
       {Vals({3, 2}, 13)}},
      {"GatherV2",
       [](const Scope& s, const Xs& in) {
         return Output(GatherV2(s, in[0], Ints(s, {1, 1, 0}), Const(s, 1)));
       },
       {Vals({2, 3, 2}, 14)}},
      // A tuple given twice sums both slices back.
      {"GatherNd",
       [](const Scope& s, const Xs& in) {
         Tensor idx = FromDoubles(DT_INT64, {3, 2}, {1, 0, 0, 2, 1, 0});
         return Output(
             Mul(s, GatherNd(s, in[0], Const(s, idx)), GatherNd(s, in[0], Const(s, idx))));
       },
       {Vals({2, 3, 2}, 17)}},
      {"ScatterNd",
       [](const Scope& s, const Xs& in) {
         return Output(ScatterNd(s, Const(s, FromDoubles(DT_INT32, {3, 1}, {2, 0, 2})), in[0],
                                 Ints(s, {4, 2})));
       },
       {Vals({3, 2}, 18)}},
      {"UnsortedSegmentSum",
       [](const Scope& s, const Xs& in) {
         return Output(UnsortedSegmentSum(s, in[0], Ints(s, {2, -1, 0, 2}), Const(s, 3)));
       },
       {Vals({4, 2}, 15)}},
  };
}

class PieceGradient : public ::testing::TestWithParam<int> {};

TEST_P(PieceGradient, SymbolicMatchesNumeric) {
  static const std::vector<Case> cases = Cases();
  const Case& c = cases[GetParam()];
  SCOPED_TRACE(c.op);
  ExpectGradientMatchesNumeric(c.build, c.inputs);
}
INSTANTIATE_TEST_SUITE_P(Pieces, PieceGradient,
                         ::testing::Range(0, static_cast<int>(Cases().size())));

// Tile of a rank-6 input (a [m, n] view would have rank 12) folds replica by replica; an
// unknown leading dim takes the -1 of each view.
TEST(PieceGradientTile, HighRankAndUnknownLeadingDim) {
  auto build = [](const Scope& s, const Xs& in) {
    return Output(Tile(s, in[0], Ints(s, {2, 1, 2, 1, 3, 2})));
  };
  auto err = GradientError(build, {Vals({2, 1, 2, 2, 1, 2}, 11)}, DT_DOUBLE);
  ASSERT_TRUE(err.ok()) << err.status();
  EXPECT_LT(*err, 1e-6);
  auto batch = [](const Scope& s, const Xs& in) {
    Output x = Reshape(s, in[0], Ints(s, {-1, 3}));  // [?, 3] at construction
    return Output(Tile(s, x, Ints(s, {2, 2})));
  };
  err = GradientError(batch, {Vals({4, 3}, 12)}, DT_DOUBLE, {.known_shapes = false});
  ASSERT_TRUE(err.ok()) << err.status();
  EXPECT_LT(*err, 1e-6);
}

// GatherV2 along axis 0 (rows summed straight into params) and with batch_dims (through
// params' positions).
TEST(PieceGradientGather, AxisZeroAndBatchDims) {
  auto axis0 = [](const Scope& s, const Xs& in) {
    return Output(GatherV2(s, in[0], Ints(s, {0, 2, 2}), Const(s, 0)));
  };
  ExpectGradientMatchesNumeric(axis0, {Vals({3, 2}, 16)});
  auto batch = [](const Scope& s, const Xs& in) {
    Tensor idx = FromDoubles(DT_INT64, {2, 2}, {1, 1, 0, 2});
    return Output(GatherV2(s, in[0], Const(s, idx), Const(s, 1), GatherV2::BatchDims(1)));
  };
  ExpectGradientMatchesNumeric(batch, {Vals({2, 3}, 17)});
}

// ClipByValue's gradient selects (TensorFlow's Where), so an infinite incoming gradient
// reaches only the parts it flows to: no 0 * inf = NaN elsewhere.
TEST(PieceGradientSelect, ClipByValueKeepsInfiniteGradientsApart) {
  const Tensor x = FromDoubles(DT_FLOAT, {3}, {-1, 0.5, 2});
  const Tensor g = FromDoubles(DT_FLOAT, {3}, {INFINITY, INFINITY, INFINITY});
  for (int wrt : {0, 1}) {
    auto got = RunOp(
        [wrt](const Scope& s, const Xs& in) {
          Output y = ClipByValue(s, in[0], in[2], Const(s, 1.0f));
          std::vector<Output> grads;
          EXPECT_TRUE(AddSymbolicGradients(s, {y}, {in[wrt == 0 ? 0 : 2]}, {in[1]}, &grads).ok());
          return grads.empty() ? Output() : grads[0];
        },
        {x, g, FromDoubles(DT_FLOAT, {}, {0})});
    ASSERT_TRUE(got.ok()) << got.status();
    if (wrt == 0) {
      ExpectTensorNear(*got, DT_FLOAT, {3}, {0, INFINITY, 0}, 0);
    } else {
      ExpectTensorNear(*got, DT_FLOAT, {}, {INFINITY}, 0);
    }
  }
}

const bool kMarked = [] {
  for (const Case& c : Cases()) GradTestedOps().insert(c.op);
  return true;
}();

}  // namespace piece_grad_test
}  // namespace
}  // namespace rill::testing
