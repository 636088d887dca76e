// The cases of TensorFlow's tensorflow/cc/framework/scope_test.cc, rewritten against rill
// (inputs and expected names are TensorFlow's; the code is ours).
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace scope_test {

TEST(ScopeTest, BasicNames) {
  Scope root = Scope::NewRootScope();
  EXPECT_EQ(root.GetUniqueNameForOp("add"), "add");
  EXPECT_EQ(root.GetUniqueNameForOp("add"), "add_1");
  EXPECT_EQ(root.GetUniqueNameForOp("add"), "add_2");
  EXPECT_EQ(root.GetUniqueNameForOp("mul"), "mul");
}

TEST(ScopeTest, OpAndScopeNameCollision) {
  Scope root = Scope::NewRootScope();
  EXPECT_EQ(root.GetUniqueNameForOp("foo"), "foo");
  EXPECT_EQ(root.GetUniqueNameForOp("foo"), "foo_1");
  EXPECT_EQ(root.GetUniqueNameForOp("foo_1"), "foo_1_1");
  EXPECT_EQ(root.GetUniqueNameForOp("foo_2"), "foo_2");
  EXPECT_EQ(root.GetUniqueNameForOp("foo"), "foo_3");
  EXPECT_EQ(root.GetUniqueNameForOp("foo_2"), "foo_2_1");
}

TEST(ScopeTest, HierarchicalNames) {
  Scope root = Scope::NewRootScope();
  Scope child = root.NewSubScope("child");
  EXPECT_EQ(child.GetUniqueNameForOp("add"), "child/add");
  EXPECT_EQ(child.GetUniqueNameForOp("add"), "child/add_1");
  EXPECT_EQ(child.GetUniqueNameForOp("mul"), "child/mul");

  Scope child_1 = root.NewSubScope("child");
  EXPECT_EQ(child_1.GetUniqueNameForOp("add"), "child_1/add");
  EXPECT_EQ(child_1.GetUniqueNameForOp("add"), "child_1/add_1");
  EXPECT_EQ(child_1.GetUniqueNameForOp("mul"), "child_1/mul");

  EXPECT_EQ(root.NewSubScope("c").NewSubScope("c").GetUniqueNameForOp("add"), "c/c/add");
  Scope c_1 = root.NewSubScope("c");
  EXPECT_EQ(c_1.NewSubScope("c").GetUniqueNameForOp("add"), "c_1/c/add");
  EXPECT_EQ(c_1.NewSubScope("c").GetUniqueNameForOp("add"), "c_1/c_1/add");

  EXPECT_EQ(root.NewSubScope("").NewSubScope("").GetUniqueNameForOp("d"), "d");
  EXPECT_EQ(root.NewSubScope("").GetUniqueNameForOp("d"), "d_1");
  EXPECT_EQ(root.GetUniqueNameForOp("d"), "d_2");
}

TEST(ScopeTest, ScopeAndOpNames) {
  Scope root = Scope::NewRootScope();
  Scope child = root.NewSubScope("child");
  EXPECT_EQ(child.GetUniqueNameForOp("add"), "child/add");
  EXPECT_EQ(root.GetUniqueNameForOp("child"), "child_1");
  EXPECT_EQ(root.NewSubScope("child").GetUniqueNameForOp("p"), "child_2/p");
}

// A composite op inside a composite op: its names, and the name of its last op.
std::vector<std::string> InnerComposite(const Scope& scope) {
  auto cop = scope.GetCompositeOpScopes("another_cop");
  const std::string c1 = cop.child.GetUniqueNameForOp("c1");
  const std::string c2 = cop.child.GetUniqueNameForOp("mul");
  return {c1, c2, cop.last.GetUniqueNameForOp("Last")};
}

std::vector<std::string> OuterComposite(const Scope& scope) {
  auto cop = scope.GetCompositeOpScopes("linear");
  const std::string mul = cop.child.GetUniqueNameForOp("mul");
  const std::string bias_add = cop.child.GetUniqueNameForOp("bias_add");
  std::vector<std::string> inner = InnerComposite(cop.last);
  return {mul, bias_add, inner[0], inner[1], inner[2]};
}

TEST(ScopeTest, CompositeOp) {
  Scope root = Scope::NewRootScope();
  EXPECT_EQ(OuterComposite(root),
            (std::vector<std::string>{"linear/mul", "linear/bias_add", "linear/c1", "linear/mul_1",
                                      "linear"}));
  EXPECT_EQ(root.GetUniqueNameForOp("linear"), "linear_1");
  EXPECT_EQ(OuterComposite(root),
            (std::vector<std::string>{"linear_2/mul", "linear_2/bias_add", "linear_2/c1",
                                      "linear_2/mul_1", "linear_2"}));
  EXPECT_EQ(OuterComposite(root.WithOpName("c")),
            (std::vector<std::string>{"c/mul", "c/bias_add", "c/c1", "c/mul_1", "c"}));
}

TEST(ScopeTest, SingleUseScope) {
  Scope root = Scope::NewRootScope();
  auto cop = root.GetCompositeOpScopes("cop");
  EXPECT_EQ(cop.last.GetUniqueNameForOp("foo"), "cop");
  cop.last.GetUniqueNameForOp("foo");  // a second use is an error on the scope
  EXPECT_FALSE(cop.last.ok());
}

TEST(ScopeTest, ControlDeps) {
  Scope root = Scope::NewRootScope();
  auto c1 = Operation();
  auto c2 = Operation();
  Scope c = root.WithControlDependencies({c1, c2});
  EXPECT_EQ(c.control_deps().size(), 2u);
  Scope c_c = c.WithControlDependencies({Operation()});
  EXPECT_EQ(c_c.control_deps().size(), 3u);
}

TEST(ScopeTest, CreateOutput) {
  Scope root = Scope::NewRootScope();
  Output a = ops::Placeholder(root.WithOpName("a"), DT_FLOAT);
  Output add;
  ASSERT_TRUE(CreateOutputWithScope("Add", {a, a}, root.WithOpName("add"), &add).ok());
  EXPECT_EQ(add.node()->name(), "add");
  EXPECT_EQ(add.node()->type_string(), "Add");
}

}  // namespace scope_test
}  // namespace
}  // namespace rill
