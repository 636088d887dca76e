// StridedSlice and StridedSliceGrad: TensorFlow's documented examples, every mask, negative
// strides and indices, clamping; op cases on every device; gradients against central
// differences.
#include <limits>

#include "gradient_checker.h"
#include "rill/ops/strided_slice_ops.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace strided_slice_test {

MarkTested tested({"StridedSlice", "StridedSliceGrad"});

using Xs = std::vector<Output>;
using Attrs = ops::StridedSlice::Attrs;

Tensor Ints(std::vector<double> v) {
  return FromDoubles(DT_INT32, {static_cast<int64_t>(v.size())}, v);
}

absl::StatusOr<Tensor> Slice(const Tensor& x, std::vector<double> b, std::vector<double> e,
                             std::vector<double> s, Attrs a = Attrs()) {
  return RunOp([a](const Scope& sc,
                   const auto& in) { return ops::StridedSlice(sc, in[0], in[1], in[2], in[3], a); },
               {x, Ints(b), Ints(e), Ints(s)});
}

// [[[1,1,1],[2,2,2]], [[3,3,3],[4,4,4]], [[5,5,5],[6,6,6]]], TensorFlow's example tensor.
Tensor T(DataType dt) {
  return FromDoubles(dt, {3, 2, 3}, {1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6});
}

TEST(StridedSlice, TensorFlowsExamplesInEveryDtype) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
    SCOPED_TRACE(DataTypeString(dt));
    auto got = Slice(T(dt), {1, 0, 0}, {2, 1, 3}, {1, 1, 1});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {1, 1, 3}, {3, 3, 3}, 0);
    got = Slice(T(dt), {1, 0, 0}, {2, 2, 3}, {1, 1, 1});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {1, 2, 3}, {3, 3, 3, 4, 4, 4}, 0);
    got = Slice(T(dt), {1, -1, 0}, {2, -3, 3}, {1, -1, 1});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {1, 2, 3}, {4, 4, 4, 3, 3, 3}, 0);
  }
}

TEST(StridedSlice, EveryMask) {
  const Tensor t = T(DT_FLOAT);
  auto got = Slice(t, {1}, {2}, {1}, Attrs().ShrinkAxisMask(1));  // t[1]
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {2, 3}, {3, 3, 3, 4, 4, 4}, 0);
  got = Slice(t, {-1}, {0}, {1}, Attrs().ShrinkAxisMask(1));  // t[-1]
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {2, 3}, {5, 5, 5, 6, 6, 6}, 0);
  got = Slice(t, {0, 0}, {0, 1}, {1, 1}, Attrs().EllipsisMask(1).ShrinkAxisMask(2));  // t[..., 0]
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {3, 2}, {1, 2, 3, 4, 5, 6}, 0);
  // t[:, newaxis, :, 0]
  got = Slice(t, {0, 0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1, 1},
              Attrs().BeginMask(5).EndMask(5).NewAxisMask(2).ShrinkAxisMask(8));
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {3, 1, 2}, {1, 2, 3, 4, 5, 6}, 0);
  // t[::2, ::-1] (the rest implicit)
  got = Slice(t, {0, 0}, {0, 0}, {2, -1}, Attrs().BeginMask(3).EndMask(3));
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {2, 2, 3}, {2, 2, 2, 1, 1, 1, 6, 6, 6, 5, 5, 5}, 0);
  const Tensor v = FromDoubles(DT_INT64, {4}, {1, 2, 3, 4});
  struct Case {
    std::vector<double> b, e, s;
    Attrs a;
    std::vector<double> want;
  };
  for (const Case& c : std::vector<Case>{
           {{0}, {0}, {-1}, Attrs().BeginMask(1).EndMask(1), {4, 3, 2, 1}},  // v[::-1]
           {{-2}, {0}, {1}, Attrs().EndMask(1), {3, 4}},                     // v[-2:]
           {{10}, {20}, {1}, Attrs(), {}},                                   // clamped: empty
           {{-10}, {2}, {1}, Attrs(), {1, 2}},                               // clamped start
           {{1}, {-1}, {-1}, Attrs(), {}},                                   // v[1:-1:-1]
           {{3}, {0}, {-2}, Attrs(), {4, 2}},                                // v[3:0:-2]
           {{0}, {4}, {3}, Attrs(), {1, 4}}}) {                              // v[0:4:3]
    SCOPED_TRACE(::testing::PrintToString(c.b) + ::testing::PrintToString(c.e) +
                 ::testing::PrintToString(c.s));
    auto r = Slice(v, c.b, c.e, c.s, c.a);
    ASSERT_TRUE(r.ok()) << r.status();
    ExpectTensorNear(*r, DT_INT64, {static_cast<int64_t>(c.want.size())}, c.want, 0);
  }
  // A zero stride, a shrunk index past the dim, two ellipses, more entries than dims.
  EXPECT_FALSE(Slice(v, {0}, {4}, {0}).ok());
  EXPECT_FALSE(Slice(v, {4}, {5}, {1}, Attrs().ShrinkAxisMask(1)).ok());
  EXPECT_FALSE(Slice(t, {0, 0}, {1, 1}, {1, 1}, Attrs().EllipsisMask(3)).ok());
  EXPECT_FALSE(Slice(v, {0, 0}, {1, 1}, {1, 1}).ok());
  // Masks are any int64: the lowest one has one bit, and a slice of v with it is fine.
  auto lowest = Slice(v, {0}, {1}, {1}, Attrs().EllipsisMask(std::numeric_limits<int64_t>::min()));
  ASSERT_TRUE(lowest.ok()) << lowest.status();
  EXPECT_EQ(lowest->shape(), TensorShape({1}));
  EXPECT_FALSE(Slice(v, {0}, {1}, {1}, Attrs().EllipsisMask(-1)).ok());
}

TEST(StridedSlice, GradPlacesDyInTheSlice) {
  auto got = RunOp(
      [](const Scope& s, const auto& in) {
        return ops::StridedSliceGrad(s, in[0], in[1], in[2], in[3], in[4]);
      },
      {Ints({5}), Ints({1}), Ints({5}), Ints({2}), FromDoubles(DT_FLOAT, {2}, {7, 8})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {5}, {0, 7, 0, 8, 0}, 0);
  // dy of the wrong shape is refused.
  EXPECT_FALSE(RunOp(
                   [](const Scope& s, const auto& in) {
                     return ops::StridedSliceGrad(s, in[0], in[1], in[2], in[3], in[4]);
                   },
                   {Ints({5}), Ints({1}), Ints({5}), Ints({2}), FromDoubles(DT_FLOAT, {3}, {})})
                   .ok());
}

TEST(StridedSlice, GradientsMatchNumeric) {
  const Tensor x = RandomTensor(DT_DOUBLE, {3, 4, 2}, -1, 1, 120);
  for (const Attrs& a : {Attrs(), Attrs().ShrinkAxisMask(1), Attrs().BeginMask(2).NewAxisMask(4)}) {
    ExpectGradientMatchesNumeric(
        [a](const Scope& s, const Xs& in) {
          return Output(ops::StridedSlice(s, in[0], ops::Const(s, {2, 3, 0}),
                                          ops::Const(s, {0, 0, 2}), ops::Const(s, {-1, -2, 1}), a));
        },
        {x});
  }
  // The gradient op's own gradient (a StridedSlice of the incoming gradient).
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Xs& in) {
        return Output(ops::StridedSliceGrad(s, ops::Const(s, {6}), ops::Const(s, {0}),
                                            ops::Const(s, {6}), ops::Const(s, {2}), in[0]));
      },
      {RandomTensor(DT_DOUBLE, {3}, -1, 1, 121)});
}

std::vector<OpCase> StridedSlices() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_INT64, DT_BOOL}) {
    c.push_back({"StridedSlice " + DataTypeString(dt),
                 [](const Scope& s, const auto& in) {
                   return ops::StridedSlice(s, in[0], ops::Const(s, {30, 0, -1}),
                                            ops::Const(s, {0, 0, 0}), ops::Const(s, {-3, 1, -2}),
                                            Attrs().EndMask(3).BeginMask(2));
                 },
                 {RandomTensor(dt, {40, 6, 9}, 0, 9, 122)},
                 0,
                 false});
  }
  c.push_back({"StridedSliceGrad",
               [](const Scope& s, const auto& in) {
                 return ops::StridedSliceGrad(s, ops::Const(s, {40, 6, 9}),
                                              ops::Const(s, {30, 0, -1}), ops::Const(s, {0, 0, 0}),
                                              ops::Const(s, {-3, 1, -2}), in[0],
                                              Attrs().EndMask(3).BeginMask(2));
               },
               {RandomTensor(DT_FLOAT, {11, 6, 4}, -1, 1, 123)},
               0,
               false});
  return c;
}

const bool kMarked = [] {
  GradTestedOps().insert("StridedSlice");
  GradTestedOps().insert("StridedSliceGrad");
  return true;
}();

}  // namespace strided_slice_test
}  // namespace

RILL_OP_CASES(strided_slice, strided_slice_test::StridedSlices);

}  // namespace rill::testing
