// If and While (ops/control_flow_ops.h): values through both branches, loops whose
// variables change shape, nesting, threads, graph files, and the errors a user meets.
#include <map>
#include <thread>

#include "absl/strings/match.h"
#include "gradient_checker.h"
#include "rill/core/function_chain.h"
#include "rill/core/testing/status_test_util.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace control_flow_test {

MarkTested tested({"If", "While"});

using Fn = ops::FunctionBodyFn;

Fn Twice() {
  return [](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
    r->push_back(ops::Mul(s, a[0], 2.f));
    return s.status();
  };
}
Fn Negate() {
  return [](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
    r->push_back(ops::Neg(s, a[0]));
    return s.status();
  };
}

TEST(Cond, RunsTheBranchThePredicateChooses) {
  Scope root = Scope::NewRootScope();
  auto pred = ops::Placeholder(root, DT_BOOL);
  auto x = ops::Placeholder(root, DT_FLOAT, ops::Placeholder::Shape({3}));
  std::vector<Output> out;
  RILL_ASSERT_OK(ops::Cond(root, pred, {x}, Twice(), Negate(), &out));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].node()->type_string(), "If");
  EXPECT_EQ(out[0].shape(), PartialTensorShape({3}));
  Session session(root);
  std::vector<Tensor> got;
  for (bool p : {true, false, true}) {
    RILL_ASSERT_OK(session.Run({{pred, p}, {x, {1.f, 2.f, -3.f}}}, {out[0]}, &got));
    ExpectTensorNear(got[0], DT_FLOAT, TensorShape({3}),
                     p ? std::vector<double>{2, 4, -6} : std::vector<double>{-1, -2, 3}, 0);
  }
}

TEST(Cond, TakesAndReturnsValuesOfSeveralDtypes) {
  Scope root = Scope::NewRootScope();
  auto n = ops::Placeholder(root, DT_INT32);
  auto x = ops::Placeholder(root, DT_FLOAT);
  // A number as predicate: true when not zero, as TensorFlow.
  std::vector<Output> out;
  RILL_ASSERT_OK(ops::Cond(
      root, n, {n, x},
      [](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
        r->push_back(ops::Add(s, a[0], 10));
        r->push_back(ops::Mul(s, a[1], ops::Cast(s, a[0], DT_FLOAT)));
        return s.status();
      },
      [](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
        r->push_back(ops::Sub(s, a[0], 1));
        r->push_back(ops::Neg(s, a[1]));
        return s.status();
      },
      &out));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].type(), DT_INT32);
  EXPECT_EQ(out[1].type(), DT_FLOAT);
  Session session(root);
  std::vector<Tensor> got;
  RILL_ASSERT_OK(session.Run({{n, 3}, {x, {1.5f, 2.f}}}, out, &got));
  EXPECT_EQ(got[0].scalar<int32_t>()(), 13);
  ExpectTensorNear(got[1], DT_FLOAT, TensorShape({2}), {4.5, 6}, 0);
  RILL_ASSERT_OK(session.Run({{n, 0}, {x, {1.5f, 2.f}}}, out, &got));
  EXPECT_EQ(got[0].scalar<int32_t>()(), -1);
  ExpectTensorNear(got[1], DT_FLOAT, TensorShape({2}), {-1.5, -2}, 0);
}

TEST(Cond, BranchesOfDifferentShapesGiveTheCommonShape) {
  Scope root = Scope::NewRootScope();
  auto pred = ops::Placeholder(root, DT_BOOL);
  auto x = ops::Placeholder(root, DT_FLOAT, ops::Placeholder::Shape({2, 3}));
  std::vector<Output> out;
  RILL_ASSERT_OK(ops::Cond(
      root, pred, {x},
      [](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
        r->push_back(ops::Sum(s, a[0], 0));  // [3]
        return s.status();
      },
      [](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
        r->push_back(ops::Sum(s, a[0], 1));  // [2]
        return s.status();
      },
      &out));
  EXPECT_EQ(out[0].shape(), PartialTensorShape({-1}));
  Session session(root);
  std::vector<Tensor> got;
  const Tensor v = FromDoubles(DT_FLOAT, TensorShape({2, 3}), {1, 2, 3, 4, 5, 6});
  RILL_ASSERT_OK(session.Run({{pred, true}, {x, v}}, out, &got));
  ExpectTensorNear(got[0], DT_FLOAT, TensorShape({3}), {5, 7, 9}, 0);
  RILL_ASSERT_OK(session.Run({{pred, false}, {x, v}}, out, &got));
  ExpectTensorNear(got[0], DT_FLOAT, TensorShape({2}), {6, 15}, 0);
}

// Sums 0..9 with a counter and an accumulator of other dtypes.
TEST(BuildWhileLoop, CountsAndAccumulates) {
  Scope root = Scope::NewRootScope();
  auto limit = ops::Placeholder(root, DT_INT32, ops::Placeholder::Shape(TensorShape()));
  OutputList out;
  RILL_ASSERT_OK(ops::BuildWhileLoop(
      root, {ops::Const(root, 0), ops::Const(root, 0.f), limit},
      [](const Scope& s, const std::vector<Output>& v, Output* o) {
        *o = ops::Less(s, v[0], v[2]);
        return s.status();
      },
      [](const Scope& s, const std::vector<Output>& v, std::vector<Output>* o) {
        *o = {ops::Add(s, v[0], 1), ops::Add(s, v[1], ops::Cast(s, v[0], DT_FLOAT)), v[2]};
        return s.status();
      },
      "sum", &out));
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].node()->name(), "sum");
  EXPECT_EQ(out[0].shape(), PartialTensorShape(TensorShape()));
  Session session(root);
  std::vector<Tensor> got;
  for (int n : {10, 0, 1000}) {
    RILL_ASSERT_OK(session.Run({{limit, n}}, {out[0], out[1]}, &got));
    EXPECT_EQ(got[0].scalar<int32_t>()(), n);
    EXPECT_EQ(got[1].scalar<float>()(), n * (n - 1) / 2.f);
  }
}

// A traced step shows the nodes of the functions its If and While ran (each iteration's),
// within the calling node's time, besides the calling node itself.
TEST(ControlFlow, ATracedStepShowsTheFunctionsNodes) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_FLOAT, ops::Placeholder::Shape({3}));
  std::vector<Output> branch;
  RILL_ASSERT_OK(ops::Cond(root, ops::Const(root, true), {x}, Twice(), Negate(), &branch));
  OutputList loop;
  RILL_ASSERT_OK(ops::BuildWhileLoop(
      root, {ops::Const(root, 0)},
      [](const Scope& s, const std::vector<Output>& v, Output* o) {
        *o = ops::Less(s, v[0], 4);
        return s.status();
      },
      [](const Scope& s, const std::vector<Output>& v, std::vector<Output>* o) {
        *o = {ops::Add(s, v[0], 1)};
        return s.status();
      },
      "count", &loop));
  Session session(root);
  RunOptions traced;
  traced.trace_level = RunOptions::FULL_TRACE;
  RunMetadata meta;
  std::vector<Tensor> got;
  RILL_ASSERT_OK(
      session.Run(traced, {{x, {1.f, 2.f, 3.f}}}, {branch[0], loop[0]}, {}, &got, &meta));
  EXPECT_EQ(got[1].scalar<int32_t>()(), 4);
  std::map<std::string, int> ops_run;
  int64_t if_start = -1, if_end = -1, mul_start = -1;
  for (const NodeExecStats& n : meta.step_stats.nodes) {
    ++ops_run[n.op];
    if (n.op == "If") if_start = n.start_ns, if_end = n.end_ns;
    if (n.op == "Mul") mul_start = n.start_ns;
  }
  EXPECT_EQ(ops_run["If"], 1);
  EXPECT_EQ(ops_run["Mul"], 1);  // the branch taken
  EXPECT_EQ(ops_run["Neg"], 0);  // not the other
  EXPECT_EQ(ops_run["While"], 1);
  EXPECT_EQ(ops_run["Less"], 5);  // the condition before each of 4 iterations and the last
  EXPECT_EQ(ops_run["Add"], 4);
  EXPECT_LE(if_start, mul_start);
  EXPECT_LE(mul_start, if_end);
  // An untraced run of the same step records nothing and still runs the functions.
  RILL_ASSERT_OK(session.Run({{x, {1.f, 2.f, 3.f}}}, {branch[0]}, &got));
  ExpectTensorNear(got[0], DT_FLOAT, TensorShape({3}), {2, 4, 6}, 0);
}

// A loop variable that grows: its shape is relaxed to what every iteration has.
TEST(BuildWhileLoop, VariablesMayChangeShape) {
  Scope root = Scope::NewRootScope();
  OutputList out;
  RILL_ASSERT_OK(ops::BuildWhileLoop(
      root, {ops::Const(root, {1.f})},
      [](const Scope& s, const std::vector<Output>& v, Output* o) {
        *o = ops::Less(s, ops::Size(s, v[0]), 8);
        return s.status();
      },
      [](const Scope& s, const std::vector<Output>& v, std::vector<Output>* o) {
        o->push_back(ops::Concat(s, {v[0], ops::Mul(s, v[0], 2.f)}, 0));
        return s.status();
      },
      "grow", &out));
  EXPECT_EQ(out[0].shape(), PartialTensorShape({-1}));
  Session session(root);
  std::vector<Tensor> got;
  RILL_ASSERT_OK(session.Run({out[0]}, &got));
  ExpectTensorNear(got[0], DT_FLOAT, TensorShape({8}), {1, 2, 2, 4, 2, 4, 4, 8}, 0);
}

// The Collatz sequence of n: an If inside the While's body.
Output CollatzSteps(const Scope& root, const Output& n) {
  OutputList out;
  absl::Status s = ops::BuildWhileLoop(
      root, {n, ops::Const(root, 0)},
      [](const Scope& s, const std::vector<Output>& v, Output* o) {
        *o = ops::Greater(s, v[0], 1);
        return s.status();
      },
      [](const Scope& s, const std::vector<Output>& v, std::vector<Output>* o) {
        std::vector<Output> next;
        RILL_RETURN_IF_ERROR(ops::Cond(
            s, ops::Equal(s, ops::Sub(s, v[0], ops::Mul(s, ops::Div(s, v[0], 2), 2)), 0), {v[0]},
            [](const Scope& t, const std::vector<Output>& a, std::vector<Output>* r) {
              r->push_back(ops::Div(t, a[0], 2));
              return t.status();
            },
            [](const Scope& t, const std::vector<Output>& a, std::vector<Output>* r) {
              r->push_back(ops::Add(t, ops::Mul(t, a[0], 3), 1));
              return t.status();
            },
            &next));
        *o = {next[0], ops::Add(s, v[1], 1)};
        return s.status();
      },
      "collatz", &out);
  EXPECT_TRUE(s.ok()) << s;
  return out.size() == 2 ? out[1] : Output();
}

TEST(BuildWhileLoop, NestsAnIfInItsBody) {
  Scope root = Scope::NewRootScope();
  auto n = ops::Placeholder(root, DT_INT32, ops::Placeholder::Shape(TensorShape()));
  Output steps = CollatzSteps(root, n);
  Session session(root);
  std::vector<Tensor> got;
  for (auto [start, want] : {std::pair{27, 111}, {1, 0}, {6, 8}, {97, 118}}) {
    RILL_ASSERT_OK(session.Run({{n, start}}, {steps}, &got));
    EXPECT_EQ(got[0].scalar<int32_t>()(), want) << start;
  }
}

TEST(BuildWhileLoop, RunsFromSeveralThreadsAtOnce) {
  Scope root = Scope::NewRootScope();
  auto n = ops::Placeholder(root, DT_INT32, ops::Placeholder::Shape(TensorShape()));
  Output steps = CollatzSteps(root, n);
  Session session(root);
  std::vector<std::thread> threads;
  std::vector<int> results(8, -1);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      std::vector<Tensor> got;
      for (int rep = 0; rep < 5; ++rep) {
        if (!session.Run({{n, t % 2 == 0 ? 27 : 97}}, {steps}, &got).ok()) return;
      }
      results[t] = got[0].scalar<int32_t>()();
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 8; ++t) EXPECT_EQ(results[t], t % 2 == 0 ? 111 : 118) << t;
}

// While runs its body chained with its condition: one function whose rets are the body's,
// then the condition's on them. Nodes of the same name in both get distinct names; a
// condition that does not take what the body returns is refused.
TEST(ControlFlow, ChainedFunctionsRunTheSecondOnTheFirstsValues) {
  auto first =
      ops::MakeFunction("body", {DT_FLOAT, DT_INT32}, {},
                        [](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
                          *r = {ops::Mul(s.WithOpName("x"), a[0], 2.f), ops::Add(s, a[1], 1)};
                          return s.status();
                        });
  auto second =
      ops::MakeFunction("cond", {DT_FLOAT, DT_INT32}, {},
                        [](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
                          *r = {ops::Less(s.WithOpName("x"), ops::Cast(s, a[1], DT_FLOAT), a[0])};
                          return s.status();
                        });
  RILL_ASSERT_OK(first.status());
  RILL_ASSERT_OK(second.status());
  absl::StatusOr<FunctionRef> chained = ChainFunctions(**first, **second);
  RILL_ASSERT_OK(chained.status());
  EXPECT_EQ((*chained)->name(), "body_then_cond");
  EXPECT_EQ((*chained)->arg_types(), (std::vector<DataType>{DT_FLOAT, DT_INT32}));
  EXPECT_EQ((*chained)->ret_types(), (std::vector<DataType>{DT_FLOAT, DT_INT32, DT_BOOL}));
  EXPECT_NE((*chained)->graph().FindNode("x_1"), nullptr);  // the second's "x"
  // As a branch of an If: (3, 4) -> (6, 5, 5 < 6); (1, 4) -> (2, 5, 5 < 2).
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_FLOAT, ops::Placeholder::Shape(TensorShape()));
  ops::If call(root, true, {x, ops::Const(root, 4)}, *chained, *chained);
  Session session(root);
  std::vector<Tensor> out;
  for (float v : {3.f, 1.f}) {
    RILL_ASSERT_OK(session.Run({{x, v}}, {call.output[0], call.output[1], call.output[2]}, &out));
    EXPECT_EQ(out[0].scalar<float>()(), 2 * v);
    EXPECT_EQ(out[1].scalar<int32_t>()(), 5);
    EXPECT_EQ(out[2].scalar<bool>()(), 5 < 2 * v);
  }
  absl::StatusOr<FunctionRef> wrong = ChainFunctions(**second, **first);
  EXPECT_TRUE(absl::IsInvalidArgument(wrong.status())) << wrong.status();
  EXPECT_TRUE(absl::StrContains(wrong.status().message(), "takes 2 args")) << wrong.status();
}

TEST(ControlFlow, ValuesOfTheCallersGraphMustComeInAsArguments) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Const(root, {1.f, 2.f});
  std::vector<Output> out;
  absl::Status s = ops::Cond(
      root, ops::Const(root, true), {},
      [&](const Scope& t, const std::vector<Output>&, std::vector<Output>* r) {
        r->push_back(ops::Neg(t, x));  // x belongs to the caller's graph
        return t.status();
      },
      Negate(), &out);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.message()).find("another graph"), std::string::npos) << s.message();
  EXPECT_NE(std::string(s.message()).find("as arguments"), std::string::npos) << s.message();
  // A function returning a value of the caller's graph directly.
  absl::StatusOr<FunctionRef> f = ops::MakeFunction(
      "leak", {}, {}, [&](const Scope&, const std::vector<Output>&, std::vector<Output>* r) {
        r->push_back(x);
        return absl::OkStatus();
      });
  EXPECT_EQ(f.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(f.status().message()).find("function 'leak': return value 0"),
            std::string::npos)
      << f.status().message();
}

TEST(ControlFlow, FunctionsHoldNoVariablesAndNoFreePlaceholders) {
  absl::StatusOr<FunctionRef> f = ops::MakeFunction(
      "stateful", {}, {}, [](const Scope& s, const std::vector<Output>&, std::vector<Output>* r) {
        r->push_back(ops::Variable(s, {2}, DT_FLOAT));
        return s.status();
      });
  EXPECT_EQ(f.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(f.status().message()).find("is a variable"), std::string::npos)
      << f.status().message();
  f = ops::MakeFunction("free", {}, {},
                        [](const Scope& s, const std::vector<Output>&, std::vector<Output>* r) {
                          r->push_back(ops::Neg(s, ops::Placeholder(s, DT_FLOAT)));
                          return s.status();
                        });
  EXPECT_EQ(f.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(f.status().message()).find("not an argument of the function"),
            std::string::npos)
      << f.status().message();
}

TEST(ControlFlow, GraphFilesKeepTheFunctions) {
  Scope root = Scope::NewRootScope();
  auto n = ops::Placeholder(root.WithOpName("n"), DT_INT32, ops::Placeholder::Shape(TensorShape()));
  Output steps = CollatzSteps(root, n);
  ASSERT_NE(steps.node(), nullptr);
  absl::StatusOr<std::string> text = GraphToText(*root.graph());
  RILL_ASSERT_OK(text.status());
  EXPECT_NE(std::string(*text).find("function {"), std::string::npos) << *text;
  EXPECT_NE(text->find("func: \"collatz/body\""), std::string::npos);
  Scope loaded = Scope::NewRootScope();
  RILL_ASSERT_OK(GraphFromText(*text, loaded));
  Session session(loaded);
  std::vector<Tensor> got;
  RILL_ASSERT_OK(session.Run({{"n", Tensor(27)}}, {steps.name()}, {}, &got));
  EXPECT_EQ(got[0].scalar<int32_t>()(), 111);
  // The text of the loaded graph is the text it was loaded from.
  absl::StatusOr<std::string> again = GraphToText(*loaded.graph());
  RILL_ASSERT_OK(again.status());
  EXPECT_EQ(*again, *text);
  // A node calling a function the file does not define.
  std::string broken = *text;
  broken.replace(broken.rfind("func: \"collatz/body\""), 20, "func: \"nowhere\"");
  Scope bad = Scope::NewRootScope();
  absl::Status s = GraphFromText(broken, bad);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.message()).find("calls function 'nowhere'"), std::string::npos)
      << s.message();
  EXPECT_EQ(bad.graph()->num_nodes(), 0);
}

TEST(ControlFlow, PredicatesFollowTensorFlowsTruth) {
  Scope root = Scope::NewRootScope();
  auto p = ops::Placeholder(root, DT_FLOAT);
  std::vector<Output> out;
  RILL_ASSERT_OK(ops::Cond(
      root, p, {},
      [](const Scope& s, const std::vector<Output>&, std::vector<Output>* r) {
        r->push_back(ops::Const(s, 1));
        return s.status();
      },
      [](const Scope& s, const std::vector<Output>&, std::vector<Output>* r) {
        r->push_back(ops::Const(s, 0));
        return s.status();
      },
      &out));
  Session session(root);
  std::vector<Tensor> got;
  const std::vector<std::pair<Tensor, int>> cases = {
      {Tensor(0.f), 0},
      {Tensor(-0.5f), 1},
      {FromDoubles(DT_FLOAT, TensorShape({0}), {}), 0},
      {FromDoubles(DT_FLOAT, TensorShape({2}), {0, 0}), 1}};
  for (const auto& [value, want] : cases) {
    RILL_ASSERT_OK(session.Run({{p, value}}, {out[0]}, &got));
    EXPECT_EQ(got[0].scalar<int32_t>()(), want) << value.DebugString();
  }
}

}  // namespace control_flow_test
}  // namespace
}  // namespace rill::testing
