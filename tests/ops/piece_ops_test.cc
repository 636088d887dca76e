// Tile, Reverse (ReverseV2), TensorFlow's first Reverse, Stack (Pack), Unstack (Unpack), Split,
// SplitV, Range, Select, SelectV2 and Where: values by hand and against index arithmetic, every
// dtype they move.
#include <cmath>
#include <cstdint>
#include <limits>

#include "test_util.h"

namespace rill::testing {
namespace {
namespace piece_ops_test {

MarkTested tested({"Tile", "Pack", "Unpack", "Split", "SplitV", "Range", "Select", "SelectV2",
                   "Where", "ReverseV2", "Reverse"});

const std::vector<DataType> kTypes = {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8, DT_BOOL};

// Tile's output by index arithmetic: out[i] = in[i_d mod n_d per dim].
std::vector<double> TileReference(const Tensor& x, const std::vector<int64_t>& m) {
  const auto in = ToDoubles(x);
  std::vector<int64_t> out_dims;
  int64_t n = 1;
  for (int d = 0; d < x.dims(); ++d) {
    out_dims.push_back(x.dim_size(d) * m[d]);
    n *= out_dims.back();
  }
  std::vector<double> out(n);
  for (int64_t i = 0; i < n; ++i) {
    int64_t rest = i, src = 0, stride = 1;
    for (int d = x.dims() - 1; d >= 0; --d) {
      src += (rest % out_dims[d]) % x.dim_size(d) * stride;
      rest /= out_dims[d];
      stride *= x.dim_size(d);
    }
    out[i] = in[src];
  }
  return out;
}

TEST(PieceOps, ReverseByHandEveryDtypeAndAxisForm) {
  auto reverse = [](const Scope& s, const auto& in) { return ops::Reverse(s, in[0], in[1]); };
  for (DataType dt : kTypes) {
    SCOPED_TRACE(DataTypeString(dt));
    const Tensor x = FromDoubles(dt, {2, 3}, {0, 1, 1, 1, 0, 0});
    auto got = RunOp(reverse, {x, FromDoubles(DT_INT32, {1}, {1})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {2, 3}, {1, 1, 0, 0, 0, 1}, 0);
  }
  const Tensor x = FromDoubles(DT_FLOAT, {2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  auto got = RunOp(reverse, {x, FromDoubles(DT_INT64, {2}, {0, -1})});  // int64, negative axis
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {2, 3, 2}, {7, 6, 9, 8, 11, 10, 1, 0, 3, 2, 5, 4}, 0);
  got = RunOp(reverse, {x, FromDoubles(DT_INT32, {3}, {1, 2, 0})});  // every axis: all reversed
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {2, 3, 2}, {11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, 0);
  got = RunOp(reverse, {x, Tensor(DT_INT32, TensorShape({0}))});  // no axis: x itself
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {2, 3, 2}, ToDoubles(x), 0);
  got = RunOp(reverse, {Tensor(DT_FLOAT, TensorShape({0, 4})), FromDoubles(DT_INT32, {1}, {1})});
  ASSERT_TRUE(got.ok()) << got.status();  // empty
  ExpectTensorNear(*got, DT_FLOAT, {0, 4}, {}, 0);
}

// TensorFlow's first Reverse flags its dims: the same as ReverseV2 of the flagged axes.
TEST(PieceOps, ReverseWithDimFlagsIsReverseV2OfTheFlaggedAxes) {
  auto reverse = [](const Scope& s, const auto& in) {
    return Output(
        ops::internal::NodeBuilder(s, "Reverse").Input(in[0]).Input(in[1]).Finalize().node());
  };
  const Tensor x = FromDoubles(DT_FLOAT, {2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  auto got = RunOp(reverse, {x, FromDoubles(DT_BOOL, {3}, {1, 0, 1})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {2, 3, 2}, {7, 6, 9, 8, 11, 10, 1, 0, 3, 2, 5, 4}, 0);
  for (DataType dt : kTypes) {
    SCOPED_TRACE(DataTypeString(dt));
    got = RunOp(reverse,
                {FromDoubles(dt, {2, 3}, {0, 1, 1, 1, 0, 0}), FromDoubles(DT_BOOL, {2}, {0, 1})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {2, 3}, {1, 1, 0, 0, 0, 1}, 0);
  }
  got = RunOp(reverse, {x, FromDoubles(DT_BOOL, {3}, {0, 0, 0})});  // nothing flagged
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {2, 3, 2}, ToDoubles(x), 0);
  got = RunOp(reverse, {FromDoubles(DT_FLOAT, {}, {3}), Tensor(DT_BOOL, TensorShape({0}))});
  ASSERT_TRUE(got.ok()) << got.status();  // a scalar, no flags
  ExpectTensorNear(*got, DT_FLOAT, {}, {3}, 0);
}

TEST(PieceOps, TileByHandAndAgainstIndexArithmeticUpToRank8) {
  auto tile = [](const Scope& s, const auto& in) { return ops::Tile(s, in[0], in[1]); };
  for (DataType dt : kTypes) {
    SCOPED_TRACE(DataTypeString(dt));
    const Tensor x = FromDoubles(dt, {2, 3}, {0, 1, 0, 1, 1, 0});
    auto got = RunOp(tile, {x, FromDoubles(DT_INT32, {2}, {2, 2})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {4, 6},
                     {0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 0}, 0);
  }
  const Tensor x = FromDoubles(DT_FLOAT, {2, 3}, {0, 1, 2, 3, 4, 5});
  auto got = RunOp(tile, {x, FromDoubles(DT_INT64, {2}, {1, 2})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {2, 6}, {0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}, 0);
  got = RunOp(tile, {x, FromDoubles(DT_INT32, {2}, {0, 3})});  // a zero multiple: empty
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {0, 9}, {}, 0);
  got = RunOp(tile, {FromDoubles(DT_FLOAT, {}, {7}), Tensor(DT_INT32, TensorShape({0}))});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {}, {7}, 0);
  // Ranks 1 to 8 (copies of up to 16 dims), sizes and multiples 1 to 3.
  uint32_t seed = 40;
  for (int rank = 1; rank <= 8; ++rank) {
    std::vector<int64_t> dims, m;
    for (int d = 0; d < rank; ++d) {
      dims.push_back(1 + (seed * 7 + d * 5) % 3);
      m.push_back(1 + (seed * 3 + d * 11) % (rank > 6 ? 2 : 3));
    }
    const Tensor in = RandomTensor(DT_INT64, TensorShape(dims), -50, 50, seed++);
    SCOPED_TRACE(in.shape().DebugString());
    auto out = RunOp(tile, {in, FromDoubles(DT_INT64, {rank}, {m.begin(), m.end()})});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(ToDoubles(*out), TileReference(in, m));
  }
}

TEST(PieceOps, StackAndUnstackAlongEveryAxis) {
  for (DataType dt : kTypes) {
    SCOPED_TRACE(DataTypeString(dt));
    const Tensor a = FromDoubles(dt, {2}, {1, 0}), b = FromDoubles(dt, {2}, {0, 0}),
                 c = FromDoubles(dt, {2}, {1, 1});
    for (int64_t axis : {0, 1, -1, -2}) {
      auto got = RunOp(
          [axis](const Scope& s, const auto& in) {
            return ops::Stack(s, {in[0], in[1], in[2]}, ops::Stack::Axis(axis));
          },
          {a, b, c});
      ASSERT_TRUE(got.ok()) << got.status();
      if (axis == 0 || axis == -2) {
        ExpectTensorNear(*got, dt, {3, 2}, {1, 0, 0, 0, 1, 1}, 0);
      } else {
        ExpectTensorNear(*got, dt, {2, 3}, {1, 0, 1, 0, 0, 1}, 0);
      }
    }
  }
  const Tensor x = FromDoubles(DT_INT32, {2, 3}, {1, 2, 3, 4, 5, 6});
  for (int i = 0; i < 3; ++i) {
    auto got =
        RunOp([i](const Scope& s,
                  const auto& in) { return ops::Unstack(s, in[0], 3, ops::Unstack::Axis(-1))[i]; },
              {x});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, DT_INT32, {2}, {1.0 + i, 4.0 + i}, 0);
  }
  auto row =
      RunOp([](const Scope& s, const auto& in) { return ops::Unstack(s, in[0], 2)[1]; }, {x});
  ASSERT_TRUE(row.ok()) << row.status();
  ExpectTensorNear(*row, DT_INT32, {3}, {4, 5, 6}, 0);
  // num must be the size of the unstacked dim; a scalar cannot be unstacked.
  EXPECT_FALSE(
      RunOp([](const Scope& s, const auto& in) { return ops::Unstack(s, in[0], 3)[0]; }, {x}).ok());
}

TEST(PieceOps, SplitAndSplitVCutAlongTheAxis) {
  const Tensor x = FromDoubles(DT_DOUBLE, {2, 6}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  for (int i = 0; i < 3; ++i) {
    auto got =
        RunOp([i](const Scope& s, const auto& in) { return ops::Split(s, in[1], in[0], 3)[i]; },
              {x, FromDoubles(DT_INT32, {}, {-1})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, DT_DOUBLE, {2, 2}, {2.0 * i, 2.0 * i + 1, 2.0 * i + 6, 2.0 * i + 7}, 0);
  }
  // 6 does not divide into 4 pieces.
  EXPECT_FALSE(
      RunOp([](const Scope& s, const auto& in) { return ops::Split(s, in[1], in[0], 4)[0]; },
            {x, FromDoubles(DT_INT32, {}, {1})})
          .ok());
  const std::vector<std::vector<double>> want = {{0, 6}, {1, 2, 3, 7, 8, 9}, {4, 5, 10, 11}};
  const std::vector<int64_t> widths = {1, 3, 2};
  for (DataType len : {DT_INT32, DT_INT64}) {
    for (int i = 0; i < 3; ++i) {
      auto got = RunOp(
          [i](const Scope& s, const auto& in) { return ops::SplitV(s, in[0], in[1], in[2], 3)[i]; },
          {x, FromDoubles(len, {3}, {1, -1, 2}), FromDoubles(DT_INT32, {}, {1})});
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectTensorNear(*got, DT_DOUBLE, {2, widths[i]}, want[i], 0);
    }
  }
  // Sizes that do not add up, two -1s.
  for (std::vector<double> sizes : {std::vector<double>{1, 1, 1}, {-1, -1, 2}}) {
    EXPECT_FALSE(RunOp([](const Scope& s,
                          const auto& in) { return ops::SplitV(s, in[0], in[1], in[2], 3)[0]; },
                       {x, FromDoubles(DT_INT32, {3}, sizes), FromDoubles(DT_INT32, {}, {1})})
                     .ok());
  }
}

TEST(PieceOps, RangeInEveryDtypeAndItsRefusals) {
  auto range = [](const Scope& s, const auto& in) { return ops::Range(s, in[0], in[1], in[2]); };
  auto run = [&](DataType dt, double a, double b, double d) {
    return RunOp(range,
                 {FromDoubles(dt, {}, {a}), FromDoubles(dt, {}, {b}), FromDoubles(dt, {}, {d})});
  };
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64}) {
    SCOPED_TRACE(DataTypeString(dt));
    auto got = run(dt, 0, 5, 1);
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {5}, {0, 1, 2, 3, 4}, 0);
    got = run(dt, 5, 0, -2);
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {3}, {5, 3, 1}, 0);
    got = run(dt, 3, 3, 1);
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {0}, {}, 0);
    EXPECT_FALSE(run(dt, 0, 5, 0).ok());  // delta 0
    EXPECT_FALSE(run(dt, 5, 0, 1).ok());  // the wrong direction
    EXPECT_FALSE(run(dt, 0, 5, -1).ok());
  }
  auto got = run(DT_FLOAT, 0, 1, 0.25);
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {4}, {0, 0.25, 0.5, 0.75}, 0);
  EXPECT_FALSE(run(DT_FLOAT, 0, INFINITY, 1).ok());
  EXPECT_FALSE(run(DT_DOUBLE, NAN, 1, 1).ok());
  // Ends far apart: the span overflows int64, the values do not.
  const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  Tensor a(DT_INT64, TensorShape({})), b(DT_INT64, TensorShape({})), d(DT_INT64, TensorShape({}));
  *a.base<int64_t>() = lo;
  *b.base<int64_t>() = hi;
  *d.base<int64_t>() = int64_t{1} << 62;
  got = RunOp(range, {a, b, d});
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->NumElements(), 4);
  EXPECT_EQ(got->base<int64_t>()[0], lo);
  EXPECT_EQ(got->base<int64_t>()[3], int64_t{1} << 62);  // -2^63 + 3 * 2^62
  *d.base<int64_t>() = 1;  // 2^64 - 1 elements: more than int64 counts
  EXPECT_FALSE(RunOp(range, {a, b, d}).ok());
}

TEST(PieceOps, SelectRowsScalarsAndElementwise) {
  auto select = [](const Scope& s, const auto& in) { return ops::Select(s, in[0], in[1], in[2]); };
  for (DataType dt : kTypes) {
    SCOPED_TRACE(DataTypeString(dt));
    const Tensor t = FromDoubles(dt, {2, 2}, {1, 1, 0, 1}),
                 e = FromDoubles(dt, {2, 2}, {0, 0, 1, 0});
    auto got = RunOp(select, {FromDoubles(DT_BOOL, {2}, {0, 1}), t, e});  // rows
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {2, 2}, {0, 0, 0, 1}, 0);
    got = RunOp(select, {FromDoubles(DT_BOOL, {2, 2}, {1, 0, 0, 1}), t, e});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {2, 2}, {1, 0, 1, 1}, 0);
    got = RunOp(select, {FromDoubles(DT_BOOL, {}, {1}), t, e});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {2, 2}, {1, 1, 0, 1}, 0);
  }
  const Tensor f = FromDoubles(DT_FLOAT, {2, 2}, {1, 2, 3, 4});
  // Select does not broadcast t against e, nor a condition of another shape.
  EXPECT_FALSE(
      RunOp(select, {FromDoubles(DT_BOOL, {}, {1}), f, FromDoubles(DT_FLOAT, {2}, {1, 2})}).ok());
  EXPECT_FALSE(RunOp(select, {FromDoubles(DT_BOOL, {3}, {1, 0, 1}), f, f}).ok());
  EXPECT_FALSE(RunOp(select, {FromDoubles(DT_BOOL, {1, 2}, {1, 0}), f, f}).ok());
}

TEST(PieceOps, SelectV2BroadcastsAllThree) {
  auto select = [](const Scope& s, const auto& in) {
    return ops::SelectV2(s, in[0], in[1], in[2]);
  };
  for (DataType dt : {DT_FLOAT, DT_INT64, DT_UINT8}) {
    auto got = RunOp(select, {FromDoubles(DT_BOOL, {2, 1}, {1, 0}), FromDoubles(dt, {3}, {1, 2, 3}),
                              FromDoubles(dt, {}, {9})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {2, 3}, {1, 2, 3, 9, 9, 9}, 0);
  }
  auto got =
      RunOp(select, {FromDoubles(DT_BOOL, {3}, {1, 0, 1}), FromDoubles(DT_FLOAT, {2, 1}, {1, 2}),
                     FromDoubles(DT_FLOAT, {1, 3}, {7, 8, 9})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {2, 3}, {1, 8, 1, 2, 8, 2}, 0);
  EXPECT_FALSE(
      RunOp(select, {FromDoubles(DT_BOOL, {2}, {1, 0}), FromDoubles(DT_FLOAT, {3}, {1, 2, 3}),
                     FromDoubles(DT_FLOAT, {}, {0})})
          .ok());
}

TEST(PieceOps, WhereListsCoordinatesOfNonzeros) {
  auto where = [](const Scope& s, const auto& in) { return ops::Where(s, in[0]); };
  auto got = RunOp(where, {FromDoubles(DT_BOOL, {2, 3}, {0, 1, 0, 1, 0, 1})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_INT64, {3, 2}, {0, 1, 1, 0, 1, 2}, 0);
  // -0.0 is zero, NaN is not.
  got = RunOp(where, {FromDoubles(DT_FLOAT, {4}, {-0.0, NAN, 0, 2})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_INT64, {2, 1}, {1, 3}, 0);
  got = RunOp(where, {FromDoubles(DT_INT32, {}, {0})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_INT64, {0, 0}, {}, 0);
  got = RunOp(where, {FromDoubles(DT_UINT8, {2, 1, 2}, {0, 3, 4, 0})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_INT64, {2, 3}, {0, 0, 1, 1, 0, 0}, 0);
}

}  // namespace piece_ops_test
}  // namespace
}  // namespace rill::testing
