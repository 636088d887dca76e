// _UnaryOpsComposition: every composable op alone against the standalone op of that name
// (Inv against Reciprocal), a chain over more elements than one block against the chain of
// standalone ops, an empty chain, and an unknown name.
#include "rill/core/unary_composition.h"

#include <cmath>
#include <string>
#include <vector>

#include "rill/ops/fused_ops.h"
#include "rill/ops/op_builder.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace unary_composition_test {

MarkTested tested({"_UnaryOpsComposition"});

using Ins = std::vector<Output>;

std::vector<double> Composed(const std::vector<std::string>& names, const Tensor& x) {
  auto got = RunOp(
      [&](const Scope& s, const Ins& in) { return ops::UnaryOpsComposition(s, in[0], names); },
      {x});
  EXPECT_TRUE(got.ok()) << got.status();
  return got.ok() ? ToDoubles(*got) : std::vector<double>();
}

// The standalone ops `names` one after another.
std::vector<double> Chained(const std::vector<std::string>& names, const Tensor& x) {
  auto got = RunOp(
      [&](const Scope& s, const Ins& in) {
        Output y = in[0];
        for (const std::string& name : names) {
          Output next;
          const absl::Status st =
              CreateOutputWithScope(name == "Inv" ? "Reciprocal" : name, {y}, s, &next);
          EXPECT_TRUE(st.ok()) << st;
          y = next;
        }
        return y;
      },
      {x});
  EXPECT_TRUE(got.ok()) << got.status();
  return got.ok() ? ToDoubles(*got) : std::vector<double>();
}

void ExpectSame(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << i;
    } else {
      EXPECT_EQ(got[i], want[i]) << i;
    }
  }
}

TEST(UnaryOpsComposition, EachOpAsItsStandaloneOp) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    const Tensor x = FromDoubles(dt, {8}, {-2.5, -1, -0.5, 0, 0.3, 0.9, 1.5, 3});
    for (const std::string& name : ComposableUnaryOps()) {
      SCOPED_TRACE(name + " " + DataTypeString(dt));
      ExpectSame(Composed({name}, x), Chained({name}, x));
    }
  }
}

TEST(UnaryOpsComposition, ChainsAcrossBlocks) {
  const std::vector<std::string> chain = {"Tanh", "Relu", "Sigmoid", "Sqrt", "Log", "Exp"};
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    const Tensor x = RandomTensor(dt, {3, 4099}, -3, 3, 9);  // three blocks and a part
    ExpectSame(Composed(chain, x), Chained(chain, x));
  }
  const Tensor x = FromDoubles(DT_FLOAT, {3}, {-1, 0, 2});
  ExpectSame(Composed({}, x), {-1, 0, 2});  // no ops: the identity
}

TEST(UnaryOpsComposition, RefusesAnUnknownOp) {
  auto got = RunOp(
      [](const Scope& s, const Ins& in) {
        return ops::UnaryOpsComposition(s, in[0], {"Sqrt", "Softmax"});
      },
      {FromDoubles(DT_FLOAT, {1}, {1})});
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.status().message().find("op_names[1] = 'Softmax'"), std::string::npos)
      << got.status();
}

}  // namespace unary_composition_test
}  // namespace
}  // namespace rill::testing
