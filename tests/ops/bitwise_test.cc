// The bitwise ops by hand in every integer type they take: broadcasting, shifts by negative
// amounts and by the width or more (clamped as TensorFlow's kernels clamp them), a signed
// right shift keeping the sign, and floats refused when the node is added.
#include "rill/ops/bitwise_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace bitwise_test {

MarkTested tested({"BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift", "Invert",
                   "PopulationCount"});

using Ins = std::vector<Output>;
using BinaryFn = std::function<Output(const Scope&, Output, Output)>;

// x op y in dtype `dt`, both given as doubles; checked against `want`.
void ExpectBinary(const BinaryFn& op, DataType dt, const TensorShape& xs,
                  const std::vector<double>& x, const TensorShape& ys, const std::vector<double>& y,
                  const std::vector<double>& want) {
  auto got = RunOp([&](const Scope& s, const Ins& in) { return op(s, in[0], in[1]); },
                   {FromDoubles(dt, xs, x), FromDoubles(dt, ys, y)});
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->dtype(), dt);
  EXPECT_EQ(ToDoubles(*got), want);
}

BinaryFn And = [](const Scope& s, Output x, Output y) { return ops::BitwiseAnd(s, x, y); };
BinaryFn Or = [](const Scope& s, Output x, Output y) { return ops::BitwiseOr(s, x, y); };
BinaryFn Xor = [](const Scope& s, Output x, Output y) { return ops::BitwiseXor(s, x, y); };
BinaryFn Left = [](const Scope& s, Output x, Output y) { return ops::LeftShift(s, x, y); };
BinaryFn Right = [](const Scope& s, Output x, Output y) { return ops::RightShift(s, x, y); };

TEST(BitwiseOps, AndOrXorBroadcastInEverySignedType) {
  for (DataType dt : {DT_INT32, DT_INT64}) {
    SCOPED_TRACE(DataTypeString(dt));
    const std::vector<double> x = {12, -1, 0, 7}, y = {10, 3};
    ExpectBinary(And, dt, {2, 2}, x, {2}, y, {8, 3, 0, 3});
    ExpectBinary(Or, dt, {2, 2}, x, {2}, y, {14, -1, 10, 7});
    ExpectBinary(Xor, dt, {2, 2}, x, {2}, y, {6, -4, 10, 4});
  }
  ExpectBinary(Xor, DT_UINT8, {3}, {255, 15, 0}, {}, {170}, {85, 165, 170});
}

TEST(BitwiseOps, ShiftsClampTheirAmountAndKeepTheSign) {
  // 5 << -2 shifts by 0; 1 << 40 in int32 shifts by 31; -1 << 1 shifts the unsigned bits.
  ExpectBinary(Left, DT_INT32, {4}, {1, -1, 5, 1}, {4}, {3, 1, -2, 40}, {8, -2, 5, -2147483648.0});
  ExpectBinary(Right, DT_INT32, {4}, {-16, 16, 5, -1}, {4}, {2, 2, -1, 100}, {-4, 4, 5, -1});
  ExpectBinary(Left, DT_INT64, {2}, {1, 3}, {}, {40}, {1099511627776.0, 3298534883328.0});
  ExpectBinary(Right, DT_INT64, {2}, {-1099511627776.0, 1}, {}, {40}, {-1, 0});
  // uint8: bits shifted out are lost; a shift by 9 is one by 7.
  ExpectBinary(Left, DT_UINT8, {3}, {200, 1, 3}, {3}, {1, 9, 0}, {144, 128, 3});
  ExpectBinary(Right, DT_UINT8, {3}, {200, 255, 3}, {3}, {3, 9, 0}, {25, 1, 3});
}

TEST(BitwiseOps, InvertAndPopulationCount) {
  auto invert = [](DataType dt, std::vector<double> x) {
    return RunOp([](const Scope& s, const Ins& in) { return ops::Invert(s, in[0]); },
                 {FromDoubles(dt, {static_cast<int64_t>(x.size())}, x)});
  };
  auto i32 = invert(DT_INT32, {0, -1, 5});
  ASSERT_TRUE(i32.ok()) << i32.status();
  EXPECT_EQ(ToDoubles(*i32), (std::vector<double>{-1, 0, -6}));
  auto u8 = invert(DT_UINT8, {0, 255, 15});
  ASSERT_TRUE(u8.ok()) << u8.status();
  EXPECT_EQ(ToDoubles(*u8), (std::vector<double>{255, 0, 240}));

  auto count = [](DataType dt, std::vector<double> x) {
    return RunOp([](const Scope& s, const Ins& in) { return ops::PopulationCount(s, in[0]); },
                 {FromDoubles(dt, {static_cast<int64_t>(x.size())}, x)});
  };
  const std::vector<std::pair<DataType, std::vector<double>>> cases = {
      {DT_INT32, {0, -1, 7}}, {DT_INT64, {-1, 1099511627776.0, 6}}, {DT_UINT8, {255, 128, 0}}};
  const std::vector<std::vector<double>> want = {{0, 32, 3}, {64, 1, 2}, {8, 1, 0}};
  for (size_t i = 0; i < cases.size(); ++i) {
    auto got = count(cases[i].first, cases[i].second);
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_EQ(got->dtype(), DT_UINT8);
    EXPECT_EQ(ToDoubles(*got), want[i]) << DataTypeString(cases[i].first);
  }
}

TEST(BitwiseOps, FloatsAreRefusedWhenTheNodeIsAdded) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Const(root, {1.f, 2.f});
  ops::BitwiseAnd(root.WithOpName("and"), x, x);
  ASSERT_FALSE(root.ok());
  EXPECT_NE(root.status().message().find("BitwiseAnd"), std::string::npos) << root.status();
  EXPECT_NE(root.status().message().find("float"), std::string::npos) << root.status();
}

}  // namespace bitwise_test
}  // namespace
}  // namespace rill::testing
