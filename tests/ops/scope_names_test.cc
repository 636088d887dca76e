// Scope names, composite-op scopes, colocation chains and Const's forms, each as
// TensorFlow's C++ API defines them (the expected names and values are TensorFlow's).
#include <numeric>
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace scope_names_test {

TEST(ScopeNames, UniqueAsTensorFlowMakesThem) {
  Scope root = Scope::NewRootScope();
  EXPECT_EQ(root.GetUniqueNameForOp("foo"), "foo");
  EXPECT_EQ(root.GetUniqueNameForOp("foo"), "foo_1");
  // A name given out counts as taken, whatever made it.
  EXPECT_EQ(root.GetUniqueNameForOp("foo_1"), "foo_1_1");
  EXPECT_EQ(root.GetUniqueNameForOp("foo_2"), "foo_2");
  EXPECT_EQ(root.GetUniqueNameForOp("foo"), "foo_3");
  EXPECT_EQ(root.GetUniqueNameForOp("foo_2"), "foo_2_1");
  // Scopes and ops share one namespace per level.
  Scope child = root.NewSubScope("child");
  EXPECT_EQ(child.GetUniqueNameForOp("add"), "child/add");
  EXPECT_EQ(root.GetUniqueNameForOp("child"), "child_1");
  EXPECT_EQ(root.NewSubScope("child").GetUniqueNameForOp("p"), "child_2/p");
  root.NewSubScope("c").NewSubScope("c");
  EXPECT_EQ(root.NewSubScope("c").NewSubScope("c").GetUniqueNameForOp("add"), "c_1/c/add");
  EXPECT_EQ(root.NewSubScope("").GetUniqueNameForOp("d"), "d");
  EXPECT_EQ(root.GetUniqueNameForOp("d"), "d_1");
}

TEST(ScopeNames, WithOpNameTwiceGivesASuffix) {
  Scope root = Scope::NewRootScope();
  EXPECT_EQ(ops::Const(root.WithOpName("x"), 1).node()->name(), "x");
  EXPECT_EQ(ops::Const(root.WithOpName("x"), 1).node()->name(), "x_1");
  Scope c = root.NewSubScope("c");
  EXPECT_EQ(ops::Const(c.WithOpName("y"), 1).node()->name(), "c/y");
  EXPECT_EQ(ops::Const(c.WithOpName("y"), 1).node()->name(), "c/y_1");
  EXPECT_EQ(ops::Const(root, 2.0).node()->name(), "Const");
  EXPECT_EQ(ops::Const(root, 2.0).node()->name(), "Const_1");
  // A name a loaded or hand-added node holds is skipped too.
  EXPECT_EQ(root.GetUniqueNameForOp("x"), "x_2");
  TF_EXPECT_OK(root.status());
}

// A composite op: its inner ops under "name/", its last op named "name".
std::vector<std::string> Composite(const Scope& scope, const std::string& name) {
  CompositeOpScopes cop = scope.GetCompositeOpScopes(name);
  std::vector<std::string> names = {cop.child.GetUniqueNameForOp("mul"),
                                    cop.child.GetUniqueNameForOp("bias_add")};
  CompositeOpScopes inner = cop.last.GetCompositeOpScopes("inner");
  names.push_back(inner.child.GetUniqueNameForOp("mul"));
  names.push_back(inner.last.GetUniqueNameForOp("Last"));
  return names;
}

TEST(ScopeNames, CompositeOpScopes) {
  Scope root = Scope::NewRootScope();
  EXPECT_EQ(Composite(root, "linear"),
            (std::vector<std::string>{"linear/mul", "linear/bias_add", "linear/mul_1", "linear"}));
  EXPECT_EQ(root.GetUniqueNameForOp("linear"), "linear_1");
  EXPECT_EQ(Composite(root, "linear"),
            (std::vector<std::string>{"linear_2/mul", "linear_2/bias_add", "linear_2/mul_1",
                                      "linear_2"}));
  EXPECT_EQ(Composite(root.WithOpName("c"), "linear")[3], "c");
  TF_EXPECT_OK(root.status());
  // The last scope names one op only.
  CompositeOpScopes cop = root.GetCompositeOpScopes("cop");
  EXPECT_EQ(cop.last.GetUniqueNameForOp("foo"), "cop");
  cop.last.GetUniqueNameForOp("foo");
  EXPECT_TRUE(errors::IsInvalidArgument(root.status()));
  Scope unnamed = Scope::NewRootScope();
  unnamed.GetCompositeOpScopes("");
  EXPECT_TRUE(errors::IsInvalidArgument(unnamed.status()));
}

TEST(ScopeNames, ColocationFollowsTheChainToItsRoot) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Const(root.WithOpName("a"), 1.f);
  auto b = ops::Identity(root.WithOpName("b").ColocateWith(a), a);
  auto c = ops::Identity(root.WithOpName("c").ColocateWith(b.operation), b);
  EXPECT_EQ(b.node()->colocate_with(), "a");
  EXPECT_EQ(c.node()->colocate_with(), "a");
}

template <typename T>
void ExpectConst(const Output& c, DataType dtype, std::initializer_list<T> values,
                 const TensorShape& shape) {
  ASSERT_NE(c.node(), nullptr);
  EXPECT_TRUE(c.node()->IsConstant());
  EXPECT_EQ(c.op().output_type(0), dtype);
  Tensor value;
  TF_ASSERT_OK(GetNodeAttr(c.node()->attrs(), "value", &value));
  DataType attr_dtype;
  TF_ASSERT_OK(GetNodeAttr(c.node()->attrs(), "dtype", &attr_dtype));
  EXPECT_EQ(attr_dtype, dtype);
  test::ExpectTensorEqual<T>(value, test::AsTensor<T>(values, shape));
}

TEST(ConstForms, AsTensorFlowHasThem) {
  Scope root = Scope::NewRootScope();
  ExpectConst<float>(ops::Const(root, 42.f), DT_FLOAT, {42.f}, {});
  ExpectConst<double>(ops::Const(root, {{2.0}, {3.0}}), DT_DOUBLE, {2.0, 3.0}, {2, 1});
  ExpectConst<double>(ops::Const(root, 42.0, {2, 2}), DT_DOUBLE, {42, 42, 42, 42}, {2, 2});
  ExpectConst<int32_t>(ops::Const(root, {1, 2, 3, 4}, {2, 2}), DT_INT32, {1, 2, 3, 4}, {2, 2});
  std::vector<float> ones(1000, 1.f);
  Output large = ops::Const(root, ones, {1000});
  EXPECT_EQ(large.node()->attr<Tensor>("value").shape(), TensorShape({1000}));
  std::vector<int> iota(10);
  std::iota(iota.begin(), iota.end(), 0);
  ExpectConst<int32_t>(ops::Const(root, iota, {10}), DT_INT32, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
                       {10});
  ExpectConst<bool>(ops::Const(root, true), DT_BOOL, {true}, {});
  // Const<T> converts the values as Cast would (TensorFlow adds a Cast node).
  ExpectConst<int32_t>(ops::Const<int>(root, {1, 2}), DT_INT32, {1, 2}, {2});
  ExpectConst<float>(ops::Const<float>(root, {1, 2}), DT_FLOAT, {1.f, 2.f}, {2});
  ExpectConst<int64_t>(ops::Const<int64_t>(root, {2.9, -2.9}), DT_INT64, {2, -2}, {2});
  TF_EXPECT_OK(root.status());
}

TEST(ConstForms, EmptyListsAndErrors) {
  Scope root = Scope::NewRootScope();
  auto shape_of = [](const Output& c) { return c.node()->attr<Tensor>("value").shape(); };
  Output c1 = ops::Const(root, {});
  EXPECT_EQ(c1.type(), DT_FLOAT);
  EXPECT_EQ(shape_of(c1), TensorShape({0}));
  EXPECT_EQ(shape_of(ops::Const(root, {{}})), TensorShape({1, 0}));
  EXPECT_EQ(shape_of(ops::Const(root, {{{}, {}}})), TensorShape({1, 2, 0}));
  Output c4 = ops::Const<int>(root, {{{}}});
  EXPECT_EQ(c4.type(), DT_INT32);
  EXPECT_EQ(shape_of(c4), TensorShape({1, 1, 0}));
  TF_EXPECT_OK(root.status());
  ops::Const(root, {{}, {{}}});
  EXPECT_TRUE(errors::IsInvalidArgument(root.status()));
  Scope counts = Scope::NewRootScope();
  ops::Const(counts, {1.f, 2.f, 3.f}, {2, 2});
  EXPECT_EQ(counts.status().message(), "initializer has 3 values but shape [2,2] needs 4");
  Scope mixed = Scope::NewRootScope();
  ops::Const(mixed, {{1.0}, {2}});
  EXPECT_TRUE(errors::IsInvalidArgument(mixed.status()));
}

TEST(GetNodeAttr, ReadsEachKindAndRefusesOthers) {
  AttrMap attrs = {{"n", int64_t{3}},
                   {"big", int64_t{1} << 40},
                   {"s", PartialTensorShape({2, -1})},
                   {"t", DT_FLOAT}};
  int32_t n = 0;
  TF_EXPECT_OK(GetNodeAttr(attrs, "n", &n));
  EXPECT_EQ(n, 3);
  EXPECT_TRUE(errors::IsInvalidArgument(GetNodeAttr(attrs, "big", &n)));
  DataType t;
  TF_EXPECT_OK(GetNodeAttr(attrs, "t", &t));
  EXPECT_EQ(t, DT_FLOAT);
  EXPECT_EQ(GetNodeAttr(attrs, "t", &n).message(), "attr 't' is a type, not a int");
  EXPECT_TRUE(errors::IsNotFound(GetNodeAttr(attrs, "missing", &t)));
  TensorShape full;
  EXPECT_TRUE(errors::IsInvalidArgument(GetNodeAttr(attrs, "s", &full)));
  PartialTensorShape partial;
  TF_EXPECT_OK(GetNodeAttr(attrs, "s", &partial));
  EXPECT_EQ(partial, PartialTensorShape({2, -1}));
}

}  // namespace scope_names_test
}  // namespace
}  // namespace rill
