// The elementwise fusion pass (runtime/passes/elementwise.cc) alone, and the values of
// fused plans against the same graphs run unoptimized: HardSwish chains with a bias and
// scalars, values read twice, broadcasts of every layout the kernel distinguishes, double.
#include <gtest/gtest.h>

#include "rill/core/fused_elementwise.h"
#include "rill/rill.h"
#include "rill/runtime/passes/passes.h"
#include "test_util.h"

namespace rill {
namespace {
namespace elementwise_fusion_test {
using namespace ops;  // NOLINT
using testing::RandomTensor;

testing::MarkTested tested({"_FusedElementwise"});

// x * min(max(x + 3, 0), 6) / 6, as ONNX exports spell HardSwish.
Output HardSwish(const Scope& s, Output x) {
  Output clip = Minimum(s, Maximum(s, Add(s, x, Const(s, 3.f)), Const(s, 0.f)), Const(s, 6.f));
  return Div(s.WithOpName("hs"), Mul(s, x, clip), Const(s, 6.f));
}

PlanGraph PlanOf(const Scope& s, const std::vector<Output>& fetches,
                 const std::vector<Output>& feeds) {
  EXPECT_TRUE(s.ok()) << s.status();
  std::vector<NodeOut> f, d;
  absl::flat_hash_set<const Node*> fed;
  for (const Output& o : fetches) f.push_back({o.node(), o.index()});
  for (const Output& o : feeds) {
    d.push_back({o.node(), o.index()});
    fed.insert(o.node());
  }
  auto pruned = Prune(f, {}, fed);
  EXPECT_TRUE(pruned.ok()) << pruned.status();
  static DeviceSet* devices = new DeviceSet(DeviceSet::Local());
  PlacementMap placed;
  for (const Node* n : *pruned) placed[n] = Placement{devices->cpu(), "test"};
  auto pg = CopyForPlan(d, f, {}, *pruned, placed, devices->cpu());
  EXPECT_TRUE(pg.ok()) << pg.status();
  return std::move(*pg);
}

TEST(ElementwiseFusion, AChainWithABiasBecomesOneNodeNamedAfterItsLastOp) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s.WithOpName("x"), DT_FLOAT, Placeholder::Shape({-1, 2}));
  auto y = BiasAdd(s.WithOpName("y"), x, Const(s.WithOpName("b"), {1.f, 2.f}));
  auto out = Relu(s.WithOpName("out"), HardSwish(s, y));
  auto g = FuseElementwise(PlanOf(s, {out}, {x}));
  ASSERT_TRUE(g.ok()) << g.status();
  const Node* f = g->fetches[0].node;
  EXPECT_EQ(f->type_string(), "_FusedElementwise");
  EXPECT_EQ(f->name(), "out");
  EXPECT_EQ(g->replaces.at(f).size(), 7u);   // BiasAdd, Add, Maximum, Minimum, Mul, Div, Relu
  EXPECT_EQ(f->input(0).node->name(), "x");  // y, read twice, is computed once inside
  EXPECT_EQ(f->input(1).node->name(), "b");
  EXPECT_EQ(f->num_inputs(), 2);  // HardSwish's constants went with its steps
  // BiasAdd, HardSwish (one step for five ops), Relu.
  const std::vector<int64_t> want = {static_cast<int64_t>(ElementwiseOp::kAdd),       0, 1,
                                     static_cast<int64_t>(ElementwiseOp::kHardSwish), 2, -1,
                                     static_cast<int64_t>(ElementwiseOp::kRelu),      3, -1};
  EXPECT_EQ(f->attr<std::vector<int64_t>>("program"), want);
}

void ExpectSameAsUnfused(const Scope& s, const Output& out, const std::vector<Output>& feeds,
                         const std::vector<Tensor>& values);

// The program of the one fused node `out` became.
std::vector<int64_t> ProgramOf(const Scope& s, const Output& out, const Output& x) {
  auto g = FuseElementwise(PlanOf(s, {out}, {x}));
  EXPECT_TRUE(g.ok()) << g.status();
  if (!g.ok() || g->fetches[0].node->type_string() != "_FusedElementwise") return {};
  return g->fetches[0].node->attr<std::vector<int64_t>>("program");
}

// Operands in either order fold; other constants, or constants whose rank would grow the
// output's, leave the five steps as they are. Values as unfused in every case.
TEST(ElementwiseFusion, HardSwishFoldsIntoOneStepWhereItIsExactlyHardSwish) {
  const int64_t hard_swish = static_cast<int64_t>(ElementwiseOp::kHardSwish);
  struct Case {
    const char* what;
    float three, six;
    std::vector<int64_t> c3_dims;
    size_t program_size;
  };
  for (const Case& c :
       {Case{"commuted", 3.f, 6.f, {}, 3}, Case{"rank-1 constants", 3.f, 6.f, {1}, 3},
        Case{"x + 2", 2.f, 6.f, {}, 15}, Case{"/ 5", 3.f, 5.f, {}, 15},
        Case{"a rank-3 constant", 3.f, 6.f, {1, 1, 1}, 15}}) {
    SCOPED_TRACE(c.what);
    Scope s = Scope::NewRootScope();
    auto x = Placeholder(s.WithOpName("x"), DT_FLOAT, Placeholder::Shape({-1, 2}));
    Tensor three(DT_FLOAT, TensorShape(c.c3_dims));
    three.flat<float>()(0) = c.three;
    Output clip = Minimum(s, Const(s, 6.f), Maximum(s, Const(s, 0.f), Add(s, Const(s, three), x)));
    Output out = Div(s, Mul(s, clip, x), Const(s, c.six));
    const std::vector<int64_t> program = ProgramOf(s, out, x);
    EXPECT_EQ(program.size(), c.program_size);
    if (c.program_size == 3 && program.size() == 3) {
      EXPECT_EQ(program[0], hard_swish);
    }
    ExpectSameAsUnfused(s, out, {x}, {RandomTensor(DT_FLOAT, {50, 2}, -8, 8, 9)});
  }
}

// A BiasAdd fuses only where its own checks cannot fail: a bias vector as long as the
// value's last dim, both known while planning.
TEST(ElementwiseFusion, ABiasAddOfUnknownShapesStaysItsOwn) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s.WithOpName("x"), DT_FLOAT);
  auto b = Placeholder(s.WithOpName("b"), DT_FLOAT);
  auto out = Relu(s.WithOpName("out"), Mul(s, BiasAdd(s.WithOpName("y"), x, b), Const(s, 2.f)));
  auto g = FuseElementwise(PlanOf(s, {out}, {x, b}));
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->fetches[0].node->type_string(), "_FusedElementwise");
  EXPECT_EQ(g->fetches[0].node->input(0).node->type_string(), "BiasAdd");
}

TEST(ElementwiseFusion, AValueReadOutsideTheChainStaysItsOwn) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s.WithOpName("x"), DT_FLOAT);
  auto y = Mul(s.WithOpName("y"), x, Const(s, 2.f));
  auto hs = HardSwish(s, y);
  auto other = Exp(s.WithOpName("other"), y);  // not fusable: y is read outside the chain
  auto g = FuseElementwise(PlanOf(s, {hs, other, y}, {x}));
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->fetches[0].node->type_string(), "_FusedElementwise");
  EXPECT_EQ(g->fetches[0].node->input(0).node->name(), "y");
  EXPECT_EQ(g->fetches[1].node->type_string(), "Exp");
  EXPECT_EQ(g->fetches[2].node->type_string(), "Mul");  // fetched, and a chain of one
}

// The fused plan's values against the unoptimized one's, same graph and feeds.
void ExpectSameAsUnfused(const Scope& s, const Output& out, const std::vector<Output>& feeds,
                         const std::vector<Tensor>& values) {
  ClientSession::FeedType feed;
  for (size_t i = 0; i < feeds.size(); ++i) feed.emplace(feeds[i], values[i]);
  std::vector<Tensor> got[2];
  for (int optimize = 0; optimize < 2; ++optimize) {
    SessionOptions options;
    options.optimize_graph = optimize == 1;
    ClientSession session(s, options);
    ASSERT_TRUE(session.Run(feed, {out}, &got[optimize]).ok());
  }
  const std::vector<double> want = testing::ToDoubles(got[0][0]);
  testing::ExpectTensorNear(got[1][0], got[0][0].dtype(), got[0][0].shape(), want, 1e-6);
}

TEST(ElementwiseFusion, FusedPlansComputeWhatTheChainsComputed) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    Scope s = Scope::NewRootScope();
    auto x = Placeholder(s.WithOpName("x"), dt, Placeholder::Shape({-1, 4, 5, 6}));
    auto bias = Placeholder(s.WithOpName("bias"), dt, Placeholder::Shape({6}));
    auto rows = Placeholder(s.WithOpName("rows"), dt);  // [N, H, 1, 1]
    auto cols = Placeholder(s.WithOpName("cols"), dt);  // [W, 1]
    auto wide = Placeholder(s.WithOpName("wide"), dt);  // [2, 1, 1, 1, 1]: grows the rank
    Output y = BiasAdd(s, x, bias);
    Output hs =
        Mul(s, y,
            Minimum(s, Relu(s, Add(s, y, Cast(s, Const(s, 3.f), dt))), Cast(s, Const(s, 6.f), dt)));
    Output norm = Div(s, Sub(s, hs, rows), Add(s, Abs(s, rows), Cast(s, Const(s, 1.f), dt)));
    Output out = Neg(s, Mul(s, Square(s, Mul(s, norm, cols)), wide));
    out = Relu6(s, Maximum(s, out, Cast(s, Const(s, -4.f), dt)));
    const std::vector<Tensor> values = {
        RandomTensor(dt, {3, 4, 5, 6}, -6, 6, 1), RandomTensor(dt, {6}, -1, 1, 2),
        RandomTensor(dt, {3, 4, 1, 1}, -2, 2, 3), RandomTensor(dt, {5, 1}, -1, 1, 4),
        RandomTensor(dt, {2, 1, 1, 1, 1}, -1, 1, 5)};
    SCOPED_TRACE(DataTypeString(dt));
    ExpectSameAsUnfused(s, out, {x, bias, rows, cols, wide}, values);
  }
}

// A chain whose values are single elements (scalars, or [1, 1]) runs on single values, as
// the unfused kernels compute them, through every op of the program set.
TEST(ElementwiseFusion, ChainsOfSingleValues) {
  for (const TensorShape& shape : {TensorShape({}), TensorShape({1, 1})}) {
    SCOPED_TRACE(shape.DebugString());
    Scope s = Scope::NewRootScope();
    auto x = Placeholder(s.WithOpName("x"), DT_FLOAT, Placeholder::Shape(shape));
    Output y = HardSwish(s, Sub(s, Mul(s, x, Const(s, 1.5f)), Const(s, 0.25f)));
    y = Relu6(s, Abs(s, Neg(s, Square(s, Div(s, y, Const(s, 0.7f))))));
    y = Relu(s, Minimum(s, Maximum(s, y, Const(s, -1.f)), Const(s, 4.f)));
    for (float v : {-3.f, 0.5f, 2.f}) {
      Tensor value(DT_FLOAT, shape);
      value.flat<float>()(0) = v;
      ExpectSameAsUnfused(s, y, {x}, {value});
    }
  }
}

// Outputs of thousands of elements cross the kernel's blocks; a bias longer than a block
// wraps within one; tens of thousands are split between threads.
TEST(ElementwiseFusion, LargeOutputsAndLongBiasVectors) {
  // 70,000 elements: split across threads where the kernel has OpenMP.
  for (const TensorShape& shape :
       {TensorShape({3, 1500}), TensorShape({7, 9, 33}), TensorShape({70, 1000})}) {
    SCOPED_TRACE(shape.DebugString());
    const int64_t c = shape.dim_size(shape.dims() - 1);
    Scope s = Scope::NewRootScope();
    auto x = Placeholder(s.WithOpName("x"), DT_FLOAT, Placeholder::Shape(shape));
    auto b = Placeholder(s.WithOpName("b"), DT_FLOAT, Placeholder::Shape({c}));
    Output out = HardSwish(s, BiasAdd(s, Mul(s, x, Const(s, 0.5f)), b));
    ExpectSameAsUnfused(
        s, out, {x, b},
        {RandomTensor(DT_FLOAT, shape, -6, 6, 6), RandomTensor(DT_FLOAT, {c}, -1, 1, 7)});
  }
}

}  // namespace elementwise_fusion_test
}  // namespace
}  // namespace rill
