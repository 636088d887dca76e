// Tensor::Slice and SubSlice (TensorFlow's): rows of dim 0 sharing the buffer, views that
// need alignment refused on a slice that is not aligned (unaligned_flat reads it), bad
// indices, and unaligned slices given to a graph as a feed or a Const (copied on the way in,
// so kernels read aligned data).
#include "rill/ops/math_ops.h"
#include "rill/runtime/session.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace tensor_slice_test {

Tensor Iota(const TensorShape& shape) {
  Tensor t(DT_FLOAT, shape);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.flat<float>()(i) = static_cast<float>(i);
  return t;
}

TEST(TensorSlice, RowsShareTheBuffer) {
  Tensor t = Iota(TensorShape({4, 3}));
  Tensor s = t.Slice(1, 3);
  EXPECT_EQ(s.shape(), TensorShape({2, 3}));
  EXPECT_TRUE(s.SharesBufferWith(t));
  ExpectTensorNear(s, DT_FLOAT, {2, 3}, {3, 4, 5, 6, 7, 8}, 0);
  s.unaligned_flat<float>()(0) = -1;  // writes show through, as TensorFlow's
  EXPECT_EQ(t.flat<float>()(3), -1);
  EXPECT_EQ(t.Slice(2, 2).shape(), TensorShape({0, 3}));
  EXPECT_EQ(t.Slice(0, 4).shape(), t.shape());
}

TEST(TensorSlice, SubSliceDropsDimZero) {
  const Tensor t = Iota(TensorShape({4, 3}));
  const Tensor row = t.SubSlice(2);
  EXPECT_EQ(row.shape(), TensorShape({3}));
  ExpectTensorNear(row, DT_FLOAT, {3}, {6, 7, 8}, 0);
  const Tensor one = Iota(TensorShape({5})).SubSlice(3);
  EXPECT_EQ(one.shape(), TensorShape({}));
  EXPECT_EQ(one.scalar<float>()(), 3);  // one element needs no alignment
}

// Row 1 of [4, 3] float starts 12 bytes in: Eigen's aligned views refuse it, the unaligned
// ones read it; a row at a 64-byte boundary is aligned.
TEST(TensorSlice, AlignedViewsOfAnUnalignedSliceAreRefused) {
  const Tensor t = Iota(TensorShape({4, 3}));
  const Tensor row = t.SubSlice(1);
  EXPECT_FALSE(row.IsAligned());
  EXPECT_EQ(row.unaligned_flat<float>()(2), 5);
  auto checked = row.checked_flat<float>();
  ASSERT_FALSE(checked.ok());
  EXPECT_NE(checked.status().message().find("not aligned"), std::string::npos) << checked.status();
  EXPECT_DEBUG_DEATH(EXPECT_EQ(row.flat<float>().size(), 0), "not aligned");
  EXPECT_TRUE(Iota(TensorShape({4, 16})).SubSlice(1).IsAligned());
}

TEST(TensorSliceDeathTest, IndicesOutsideDimZeroStopInDebugAndAreEmptyInRelease) {
  const Tensor t = Iota(TensorShape({4, 3}));
  EXPECT_DEBUG_DEATH(EXPECT_EQ(t.SubSlice(4).NumElements(), 0), "SubSlice");
  EXPECT_DEBUG_DEATH(EXPECT_EQ(t.SubSlice(-1).NumElements(), 0), "SubSlice");
  EXPECT_DEBUG_DEATH(EXPECT_EQ(t.Slice(3, 2).NumElements(), 0), "Slice");
  EXPECT_DEBUG_DEATH(EXPECT_EQ(t.Slice(0, 5).NumElements(), 0), "Slice");
  EXPECT_DEBUG_DEATH(EXPECT_EQ(Tensor(1.f).SubSlice(0).NumElements(), 0), "SubSlice");
}

// Rows 1 and 2 of [4, 7] float (28 bytes in) as a feed and as a Const.
TEST(TensorSlice, UnalignedSlicesEnterGraphsAsAlignedCopies) {
  const Tensor rows = Iota(TensorShape({4, 7})).Slice(1, 3);
  ASSERT_FALSE(rows.IsAligned());
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT);
  auto fed = ops::Sum(s, ops::Mul(s, x, x), {0, 1});
  auto constant = ops::Sum(s, ops::Const(s, rows), {0, 1});
  ClientSession session(s);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({{x, rows}}, {fed, constant}, &out).ok());
  double squares = 0, sum = 0;
  for (int i = 7; i < 21; ++i) squares += i * i, sum += i;
  ExpectTensorNear(out[0], DT_FLOAT, {}, {squares}, 0);
  ExpectTensorNear(out[1], DT_FLOAT, {}, {sum}, 0);
}

}  // namespace tensor_slice_test
}  // namespace
}  // namespace rill::testing
