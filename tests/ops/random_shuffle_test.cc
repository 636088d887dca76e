// RandomShuffle (tf.random.shuffle): rows kept whole and each exactly once, every order
// reachable and about equally likely, seeds repeatable across Sessions, runs continuing
// the stream, any dtype, scalars and empty tensors unchanged.
#include <map>
#include <set>

#include "rill/core/testing/status_test_util.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace random_shuffle_test {

MarkTested tested({"RandomShuffle"});

// Rows [10 i, 10 i + 1] of a [n, 2] int64 tensor, shuffled once per run.
std::vector<std::vector<int64_t>> Orders(int64_t n, int runs, const ops::RandomShuffle::Attrs& a) {
  Scope root = Scope::NewRootScope();
  Tensor rows(DT_INT64, TensorShape({n, 2}));
  for (int64_t i = 0; i < n; ++i) {
    rows.matrix<int64_t>()(i, 0) = 10 * i;
    rows.matrix<int64_t>()(i, 1) = 10 * i + 1;
  }
  auto shuffled = ops::RandomShuffle(root, ops::Const(root, rows), a);
  Session session(root);
  std::vector<std::vector<int64_t>> orders;
  for (int r = 0; r < runs; ++r) {
    std::vector<Tensor> got;
    EXPECT_TRUE(session.Run({shuffled}, &got).ok());
    std::vector<int64_t> order;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t first = got[0].matrix<int64_t>()(i, 0);
      EXPECT_EQ(got[0].matrix<int64_t>()(i, 1), first + 1);  // the row moved whole
      order.push_back(first / 10);
    }
    orders.push_back(order);
  }
  return orders;
}

TEST(RandomShuffle, EveryRowOnceAndEveryOrderAboutAsLikely) {
  const auto orders = Orders(3, 1200, ops::RandomShuffle::Seed(7));
  std::map<std::vector<int64_t>, int> seen;
  for (const auto& o : orders) {
    EXPECT_EQ(std::set<int64_t>(o.begin(), o.end()).size(), 3u);
    ++seen[o];
  }
  ASSERT_EQ(seen.size(), 6u);  // all 3! orders
  for (const auto& [order, count] : seen) {
    EXPECT_GT(count, 140) << order[0] << order[1] << order[2];  // 200 expected
    EXPECT_LT(count, 260) << order[0] << order[1] << order[2];
  }
}

TEST(RandomShuffle, SeedsRepeatAcrossSessions) {
  const auto a = Orders(10, 5, ops::RandomShuffle::Seed(3).Seed2(4));
  const auto b = Orders(10, 5, ops::RandomShuffle::Seed(3).Seed2(4));
  EXPECT_EQ(a, b);
  EXPECT_NE(a[0], a[1]);  // a run continues the stream (10! orders: equal by chance ~3e-7)
  EXPECT_NE(a, Orders(10, 5, ops::RandomShuffle::Seed(3).Seed2(5)));
}

TEST(RandomShuffle, ScalarsEmptyAndOtherDtypes) {
  Scope root = Scope::NewRootScope();
  auto scalar = ops::RandomShuffle(root, ops::Const(root, 2.5f));
  auto empty = ops::RandomShuffle(root, ops::Const(root, Tensor(DT_FLOAT, TensorShape({0, 3}))));
  auto one = ops::RandomShuffle(root, ops::Const(root, {{1.0, 2.0}}));
  auto flags = ops::RandomShuffle(root, ops::Const(root, {true, true, false, true}));
  Session session(root);
  std::vector<Tensor> got;
  RILL_ASSERT_OK(session.Run({scalar, empty, one, flags}, &got));
  EXPECT_EQ(got[0].scalar<float>()(), 2.5f);
  EXPECT_EQ(got[1].shape(), TensorShape({0, 3}));
  EXPECT_EQ(ToDoubles(got[2]), std::vector<double>({1, 2}));
  const std::vector<double> f = ToDoubles(got[3]);
  EXPECT_EQ(std::count(f.begin(), f.end(), 1.0), 3);
  EXPECT_EQ(f.size(), 4u);
}

}  // namespace random_shuffle_test
}  // namespace
}  // namespace rill::testing
