// Gradients through If and While (ops/control_flow_grad.cc): against central differences,
// against the same computation written without control flow, through nesting, over loops
// of zero and many iterations, in training, and the errors a user meets.
#include "absl/strings/match.h"
#include "gradient_checker.h"
#include "rill/core/testing/status_test_util.h"
#include "support/model_steps.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace control_flow_grad_test {

MarkTested tested({"_WhileRecord", "_LogRead"});
// _WhileRecord's and _LogRead's gradient functions (which refuse, clearly) are checked by
// ControlFlowGrad.SecondOrderThroughWhileIsAClearError.
const bool kGradChecked = [] {
  GradTestedOps().insert({"If", "While", "_WhileRecord", "_LogRead"});
  return true;
}();

using Fn = ops::FunctionBodyFn;

// then: (x * w + sin(x), 2x); else: (w^2 - x, x): outputs that use one, both or no input.
Fn Then() {
  return [](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
    *r = {ops::Add(s, ops::Mul(s, a[0], a[1]), ops::Sin(s, a[0])), ops::Add(s, a[0], a[0])};
    return s.status();
  };
}
Fn Else() {
  return [](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
    *r = {ops::Sub(s, ops::Square(s, a[1]), a[0]), a[0]};
    return s.status();
  };
}

// A weighted sum of every float output, so each output's gradient matters.
Output WeightedSum(const Scope& s, const std::vector<Output>& outs) {
  Output total = ops::Sum(s, ops::Reshape(s, outs[0], {-1}), 0);
  for (size_t k = 1; k < outs.size(); ++k) {
    auto w = ops::Cast(s, static_cast<int>(k + 1), outs[k].type());
    auto sum = ops::Sum(s, ops::Reshape(s, outs[k], {-1}), 0);
    total = ops::Add(s, total, ops::Mul(s, w, sum));
  }
  return total;
}

TEST(ControlFlowGrad, IfMatchesNumericOnBothBranches) {
  for (bool pred : {true, false}) {
    SCOPED_TRACE(pred ? "then" : "else");
    auto build = [pred](const Scope& s, const std::vector<Output>& x) {
      std::vector<Output> out;
      s.UpdateStatus(ops::Cond(s, ops::Const(s, pred), {x[0], x[1]}, Then(), Else(), &out));
      return s.ok() ? WeightedSum(s, out) : Output();
    };
    ExpectGradientMatchesNumeric(
        build, {RandomTensor(DT_DOUBLE, {3}, -1, 1, 1), RandomTensor(DT_DOUBLE, {3}, -1, 1, 2)});
  }
}

// The predicate fed per run: one graph, the gradient of whichever branch ran.
TEST(ControlFlowGrad, IfFollowsThePredicateOfEachRun) {
  Scope root = Scope::NewRootScope();
  auto pred = ops::Placeholder(root, DT_BOOL);
  auto x = ops::Placeholder(root, DT_FLOAT);
  auto w = ops::Placeholder(root, DT_FLOAT);
  std::vector<Output> out, grads;
  RILL_ASSERT_OK(ops::Cond(root, pred, {x, w}, Then(), Else(), &out));
  RILL_ASSERT_OK(AddSymbolicGradients(root, {out[0]}, {x, w}, &grads));
  Session session(root);
  std::vector<Tensor> got;
  const std::vector<double> xv{0.5, -1, 2}, wv{3, 4, -5};
  for (bool p : {true, false, true}) {
    RILL_ASSERT_OK(session.Run(
        {{pred, p}, {x, FromDoubles(DT_FLOAT, {3}, xv)}, {w, FromDoubles(DT_FLOAT, {3}, wv)}},
        grads, &got));
    std::vector<double> dx, dw;
    for (int i = 0; i < 3; ++i) {
      dx.push_back(p ? wv[i] + std::cos(xv[i]) : -1);
      dw.push_back(p ? xv[i] : 2 * wv[i]);
    }
    ExpectTensorNear(got[0], DT_FLOAT, TensorShape({3}), dx, 1e-6);
    ExpectTensorNear(got[1], DT_FLOAT, TensorShape({3}), dw, 1e-6);
  }
}

// Integer inputs and outputs differentiate as in TensorFlow; bool ones pass none.
TEST(ControlFlowGrad, IfDifferentiatesIntegersButNotBools) {
  Scope root = Scope::NewRootScope();
  auto n = ops::Placeholder(root, DT_INT32);
  auto b = ops::Placeholder(root, DT_BOOL);
  auto x = ops::Placeholder(root, DT_FLOAT);
  auto body = [](int k) -> Fn {
    return [k](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
      *r = {ops::Mul(s, a[0], k), ops::Mul(s, a[1], static_cast<float>(k)),
            ops::LogicalNot(s, a[2])};
      return s.status();
    };
  };
  std::vector<Output> out, grads;
  RILL_ASSERT_OK(ops::Cond(root, n, {n, x, b}, body(3), body(-2), &out));
  RILL_ASSERT_OK(AddSymbolicGradients(root, {out[0], out[1]}, {n, x}, &grads));
  std::vector<Output> from_bool;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {out[2]}, {b}, &from_bool));
  EXPECT_EQ(from_bool[0].node(), nullptr);  // NoGradient(): none flows through a bool
  Session session(root);
  std::vector<Tensor> got;
  for (auto [nv, k] : {std::pair{1, 3}, {0, -2}}) {
    RILL_ASSERT_OK(session.Run({{n, nv}, {b, true}, {x, {1.f, 2.f}}}, grads, &got));
    EXPECT_EQ(got[0].scalar<int32_t>()(), k);
    ExpectTensorNear(got[1], DT_FLOAT, TensorShape({2}), {1.0 * k, 1.0 * k}, 0);
  }
}

// x <- tanh(x * w) + w while i < 3: x changes each iteration, w is passed through (its
// gradient sums over the iterations), i is an integer.
absl::Status TanhLoop(const Scope& s, const std::vector<Output>& init, OutputList* out) {
  return ops::BuildWhileLoop(
      s, init,
      [](const Scope& t, const std::vector<Output>& v, Output* o) {
        *o = ops::Less(t, v[0], 3);
        return t.status();
      },
      [](const Scope& t, const std::vector<Output>& v, std::vector<Output>* o) {
        *o = {ops::Add(t, v[0], 1), ops::Add(t, ops::Tanh(t, ops::Mul(t, v[1], v[2])), v[2]), v[2]};
        return t.status();
      },
      "tanh_loop", out);
}

TEST(ControlFlowGrad, WhileMatchesNumeric) {
  for (int start : {0, 2, 3}) {  // three iterations, one, none
    SCOPED_TRACE(start);
    auto build = [start](const Scope& s, const std::vector<Output>& x) {
      OutputList out;
      s.UpdateStatus(TanhLoop(s, {ops::Const(s, start), x[0], x[1]}, &out));
      return s.ok() ? WeightedSum(s, {out[1], out[2]}) : Output();
    };
    ExpectGradientMatchesNumeric(build, {RandomTensor(DT_DOUBLE, {2, 3}, -1, 1, 3),
                                         RandomTensor(DT_DOUBLE, {2, 3}, -1, 1, 4)});
  }
}

// x * 2 n times, n fed per run: the recorded loop runs as often as the forward one.
TEST(ControlFlowGrad, WhileFollowsTheIterationsOfEachRun) {
  Scope root = Scope::NewRootScope();
  auto n = ops::Placeholder(root, DT_INT32, ops::Placeholder::Shape(TensorShape()));
  auto x = ops::Placeholder(root, DT_FLOAT);
  OutputList out;
  RILL_ASSERT_OK(ops::BuildWhileLoop(
      root, {n, x},
      [](const Scope& t, const std::vector<Output>& v, Output* o) {
        *o = ops::Greater(t, v[0], 0);
        return t.status();
      },
      [](const Scope& t, const std::vector<Output>& v, std::vector<Output>* o) {
        *o = {ops::Sub(t, v[0], 1), ops::Mul(t, v[1], ops::Square(t, v[1]))};
        return t.status();
      },
      "cubes", &out));
  std::vector<Output> grads;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {out[1]}, {x}, &grads));
  Session session(root);
  std::vector<Tensor> got;
  for (int k : {0, 1, 2, 0, 3}) {  // y = x^(3^k), dy/dx = 3^k x^(3^k - 1)
    RILL_ASSERT_OK(session.Run({{n, k}, {x, {1.1f, -0.9f}}}, grads, &got));
    const double p = std::pow(3.0, k);
    ExpectTensorNear(got[0], DT_FLOAT, TensorShape({2}),
                     {p * std::pow(1.1, p - 1), p * std::pow(-0.9, p - 1)}, 1e-4);
  }
}

// A While whose body holds an If, inside an If's branch: each level differentiates the next.
TEST(ControlFlowGrad, NestedIfAndWhileMatchNumeric) {
  Fn loop_branch = [](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
    OutputList out;
    RILL_RETURN_IF_ERROR(ops::BuildWhileLoop(
        s, {ops::Const(s, 0), a[0], a[1]},
        [](const Scope& t, const std::vector<Output>& v, Output* o) {
          *o = ops::Less(t, v[0], 4);
          return t.status();
        },
        [](const Scope& t, const std::vector<Output>& v, std::vector<Output>* o) {
          std::vector<Output> next;
          RILL_RETURN_IF_ERROR(ops::Cond(
              t, ops::Less(t, v[0], 2), {v[1], v[2]},
              [](const Scope& u, const std::vector<Output>& b, std::vector<Output>* q) {
                *q = {ops::Sin(u, ops::Mul(u, b[0], b[1]))};
                return u.status();
              },
              [](const Scope& u, const std::vector<Output>& b, std::vector<Output>* q) {
                *q = {ops::Add(u, ops::Square(u, b[0]), b[1])};
                return u.status();
              },
              &next));
          *o = {ops::Add(t, v[0], 1), next[0], v[2]};
          return t.status();
        },
        "inner", &out));
    *r = {out[1]};
    return s.status();
  };
  Fn plain = [](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
    *r = {ops::Mul(s, a[0], a[1])};
    return s.status();
  };
  for (bool pred : {true, false}) {
    auto build = [&](const Scope& s, const std::vector<Output>& x) {
      std::vector<Output> out;
      s.UpdateStatus(ops::Cond(s, ops::Const(s, pred), {x[0], x[1]}, loop_branch, plain, &out));
      return s.ok() ? WeightedSum(s, out) : Output();
    };
    ExpectGradientMatchesNumeric(build, {RandomTensor(DT_DOUBLE, {3}, -0.8, 0.8, 5),
                                         RandomTensor(DT_DOUBLE, {3}, -0.8, 0.8, 6)});
  }
}

// TensorFlow's control_flow_ops_py_test cases of a loop of squares: x, y = x^2 + y^2, y^2
// while x < 100, from (3, 2): gradients of each output and of their sum, with and without
// StopGradient (expected values are TensorFlow's).
TEST(ControlFlowGrad, TensorFlowsLoopOfSquares) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Const(root, 3.f);
  auto y = ops::Const(root, 2.f);
  OutputList r;
  RILL_ASSERT_OK(ops::BuildWhileLoop(
      root, {x, y},
      [](const Scope& t, const std::vector<Output>& v, Output* o) {
        *o = ops::Less(t, v[0], 100.f);
        return t.status();
      },
      [](const Scope& t, const std::vector<Output>& v, std::vector<Output>* o) {
        auto y1 = ops::Square(t, v[1]);
        *o = {ops::Add(t, ops::Square(t, v[0]), y1), y1};
        return t.status();
      },
      "squares", &r));
  auto grad = [&](const Output& of, const Output& wrt) {
    std::vector<Output> g;
    root.UpdateStatus(AddSymbolicGradients(root, {of}, {wrt}, &g));
    return g.empty() ? Output() : g[0];
  };
  const std::vector<Output> want_grads = {
      grad(r[0], y), grad(r[1], y), grad(ops::Add(root, r[0], r[1]), y),
      grad(ops::Add(root, r[0], ops::StopGradient(root, r[1])), y),
      grad(ops::Add(root, ops::StopGradient(root, r[0]), r[1]), y)};
  RILL_ASSERT_OK(root.status());
  EXPECT_EQ(grad(ops::StopGradient(root, r[0]), y).node(), nullptr);
  Session session(root);
  std::vector<Tensor> got;
  RILL_ASSERT_OK(session.Run(want_grads, &got));
  const std::vector<float> want = {136, 32, 168, 136, 32};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i].scalar<float>()(), want[i]) << i;
}

// TensorFlow's case of an If in a While's body: x = cond(true, x^2, x - 1) while x < 100,
// from 2: 2 -> 4 -> 16 -> 256, so the gradient is 4 * 8 * 32.
TEST(ControlFlowGrad, TensorFlowsIfInALoop) {
  Scope root = Scope::NewRootScope();
  auto v = ops::Placeholder(root, DT_FLOAT);
  OutputList r;
  RILL_ASSERT_OK(ops::BuildWhileLoop(
      root, {v},
      [](const Scope& t, const std::vector<Output>& a, Output* o) {
        *o = ops::Less(t, a[0], 100.f);
        return t.status();
      },
      [](const Scope& t, const std::vector<Output>& a, std::vector<Output>* o) {
        return ops::Cond(
            t, ops::Const(t, true), {a[0]},
            [](const Scope& u, const std::vector<Output>& b, std::vector<Output>* q) {
              *q = {ops::Square(u, b[0])};
              return u.status();
            },
            [](const Scope& u, const std::vector<Output>& b, std::vector<Output>* q) {
              *q = {ops::Sub(u, b[0], 1.f)};
              return u.status();
            },
            o);
      },
      "loop", &r));
  std::vector<Output> g;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {r[0]}, {v}, &g));
  Session session(root);
  std::vector<Tensor> got;
  RILL_ASSERT_OK(session.Run({{v, 2.f}}, {g[0]}, &got));
  EXPECT_EQ(got[0].scalar<float>()(), 1024.f);
}

// 50 SGD steps of a recurrent net written as a While end with the weights of the same net
// unrolled by hand, and each step's input gradient agrees.
TEST(ControlFlowGrad, AnRnnAsAWhileTrainsAsItsUnrolledTwin) {
  std::vector<std::vector<Tensor>> weights, dx;
  Tensor w0;
  for (bool as_while : {true, false}) {
    TrainStep t = RnnStep(5, 4, 3, 6, as_while);
    std::vector<Output> gx;
    RILL_ASSERT_OK(AddSymbolicGradients(t.scope, {t.loss}, {t.x}, &gx));
    Session session(t.scope);
    RILL_ASSERT_OK(session.Run({}, {}, {t.init}, nullptr));
    std::vector<Tensor> got;
    RILL_ASSERT_OK(session.Run({}, t.weights, {}, &got));
    w0 = got[0];
    dx.emplace_back();
    for (int i = 0; i < 50; ++i) {
      RILL_ASSERT_OK(session.Run({{t.x, t.x_value}, {t.y, t.y_value}}, {gx[0]}, &got));
      dx.back().push_back(got[0]);
      RILL_ASSERT_OK(session.Run({{t.x, t.x_value}, {t.y, t.y_value}}, {}, {t.train}, nullptr));
    }
    RILL_ASSERT_OK(session.Run({}, t.weights, {}, &got));
    weights.push_back(got);
  }
  for (int k = 0; k < 2; ++k) {
    ExpectTensorNear(weights[0][k], DT_FLOAT, weights[1][k].shape(), ToDoubles(weights[1][k]),
                     1e-5);
  }
  const std::vector<double> after = ToDoubles(weights[1][0]), before = ToDoubles(w0);
  double moved = 0;
  for (size_t i = 0; i < after.size(); ++i) moved = std::max(moved, std::abs(after[i] - before[i]));
  EXPECT_GT(moved, 1e-2);  // it trained
  for (int i = 0; i < 50; i += 7) {
    ExpectTensorNear(dx[0][i], DT_FLOAT, dx[1][i].shape(), ToDoubles(dx[1][i]), 1e-5);
  }
}

// A graph holding a While's gradient (its record, log reads and functions, the record's
// body sharing the loop body's graph) is written to a graph file and read back: the same
// gradient.
TEST(ControlFlowGrad, GraphFilesKeepTheGradient) {
  TrainStep t = RnnStep(4, 2, 3, 5, /*as_while=*/true);
  std::vector<Output> g;
  RILL_ASSERT_OK(AddSymbolicGradients(t.scope, {t.loss}, {t.x}, &g));
  std::vector<Tensor> want, got;
  {
    Session session(t.scope);
    RILL_ASSERT_OK(session.Run({}, {}, {t.init}, nullptr));
    RILL_ASSERT_OK(session.Run({{t.x, t.x_value}, {t.y, t.y_value}}, {g[0]}, &want));
  }
  absl::StatusOr<std::string> text = GraphToText(*t.scope.graph());
  RILL_ASSERT_OK(text.status());
  EXPECT_TRUE(absl::StrContains(*text, "_WhileRecord")) << *text;
  EXPECT_TRUE(absl::StrContains(*text, "_LogRead")) << *text;
  Scope loaded = Scope::NewRootScope();
  RILL_ASSERT_OK(GraphFromText(*text, loaded));
  Session session(loaded);
  RILL_ASSERT_OK(session.Run({}, {}, {t.init.name()}, nullptr));
  RILL_ASSERT_OK(
      session.Run({{t.x.name(), t.x_value}, {t.y.name(), t.y_value}}, {g[0].name()}, {}, &got));
  ExpectTensorNear(got[0], DT_FLOAT, want[0].shape(), ToDoubles(want[0]), 0);
}

// An If's gradient is an If, so it differentiates again; a While's is built of a record
// and log reads, which refuse a second derivative rather than give a wrong one.
TEST(ControlFlowGrad, SecondOrderThroughIfWorksAndThroughWhileIsAClearError) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_FLOAT);
  std::vector<Output> out, g1, g2;
  RILL_ASSERT_OK(ops::Cond(
      root, ops::Const(root, true), {x},
      [](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
        *r = {ops::Mul(s, ops::Square(s, a[0]), a[0])};  // x^3
        return s.status();
      },
      [](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
        *r = {a[0]};
        return s.status();
      },
      &out));
  RILL_ASSERT_OK(AddSymbolicGradients(root, {out[0]}, {x}, &g1));
  RILL_ASSERT_OK(AddSymbolicGradients(root, {g1[0]}, {x}, &g2));
  Session session(root);
  std::vector<Tensor> got;
  RILL_ASSERT_OK(session.Run({{x, {2.f}}}, {g1[0], g2[0]}, &got));
  ExpectTensorNear(got[0], DT_FLOAT, TensorShape({1}), {12}, 1e-5);  // 3x^2
  ExpectTensorNear(got[1], DT_FLOAT, TensorShape({1}), {12}, 1e-5);  // 6x

  TrainStep t = RnnStep(3, 2, 3, 4, /*as_while=*/true);
  std::vector<Output> dx, ddx;
  RILL_ASSERT_OK(AddSymbolicGradients(t.scope, {t.loss}, {t.x}, &dx));
  auto norm = ops::Sum(t.scope, ops::Reshape(t.scope, ops::Square(t.scope, dx[0]), {-1}), 0);
  absl::Status s = AddSymbolicGradients(t.scope, {norm}, {t.x}, &ddx);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(s.message(), "gradients of gradients through While")) << s;
}

// A branch that draws random numbers would draw others when run again for the gradient.
TEST(ControlFlowGrad, AStatefulOpInAFunctionIsRefused) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_FLOAT);
  std::vector<Output> out, grads;
  RILL_ASSERT_OK(ops::Cond(
      root, ops::Const(root, true), {x},
      [](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
        auto noise = ops::RandomUniform(s.WithOpName("noise"), ops::Shape(s, a[0]), DT_FLOAT);
        *r = {ops::Mul(s, a[0], noise)};
        return s.status();
      },
      [](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
        *r = {a[0]};
        return s.status();
      },
      &out));
  absl::Status s = AddSymbolicGradients(root, {out[0]}, {x}, &grads);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  for (const char* part : {"node 'cond' (If)", "function 'cond/then'",
                           "node 'noise' (RandomUniform)", "StopGradient"}) {
    EXPECT_TRUE(absl::StrContains(s.message(), part)) << part << " in " << s.message();
  }
}

constexpr int kSteps = 5, kBatch = 4, kIn = 3, kHidden = 6;

// Every hidden state of a recurrent net, [kSteps, kBatch, kHidden]: as a While whose
// accumulator grows by one state an iteration (as ONNX's Loop builds scan outputs), or
// unrolled.
Output RnnStates(const Scope& s, const Output& x, const Output& w, const Output& u, bool loop) {
  auto h0 = ops::Const(s, Input::Initializer(0.f, TensorShape({kBatch, kHidden})));
  auto step = [](const Scope& t, const Output& xt, const Output& h, const Output& w,
                 const Output& u) {
    return ops::Tanh(t, ops::Add(t, ops::MatMul(t, xt, w), ops::MatMul(t, h, u)));
  };
  if (!loop) {
    Output h = h0;
    std::vector<Output> states;
    for (int t = 0; t < kSteps; ++t) {
      h = step(s, ops::Gather(s, x, t), h, w, u);
      states.push_back(ops::ExpandDims(s, h, 0));
    }
    return ops::Concat(s, states, 0);
  }
  auto none = ops::Const(s, Input::Initializer(0.f, TensorShape({0, kBatch, kHidden})));
  OutputList out;
  s.UpdateStatus(ops::BuildWhileLoop(
      s, {ops::Const(s, 0), h0, none, x, w, u},
      [](const Scope& t, const std::vector<Output>& v, Output* o) {
        *o = ops::Less(t, v[0], kSteps);
        return t.status();
      },
      [&](const Scope& t, const std::vector<Output>& v, std::vector<Output>* o) {
        auto h = step(t, ops::Gather(t, v[3], v[0]), v[1], v[4], v[5]);
        *o = {ops::Add(t, v[0], 1),
              h,
              ops::Concat(t, {v[2], ops::ExpandDims(t, h, 0)}, 0),
              v[3],
              v[4],
              v[5]};
        return t.status();
      },
      "rnn", &out));
  return s.ok() ? out[2] : Output();
}

// A loop variable that grows (an accumulator) differentiates as its unrolled twin, and the
// recording loop logs it at its final size, not the sum of its sizes.
TEST(ControlFlowGrad, AGrowingAccumulatorDifferentiates) {
  const Tensor xv = RandomTensor(DT_FLOAT, {kSteps, kBatch, kIn}, -1, 1, 11);
  const Tensor target = RandomTensor(DT_FLOAT, {kSteps, kBatch, kHidden}, -0.5, 0.5, 12);
  const Tensor w0 = RandomTensor(DT_FLOAT, {kIn, kHidden}, -0.5, 0.5, 13);
  const Tensor u0 = RandomTensor(DT_FLOAT, {kHidden, kHidden}, -0.5, 0.5, 14);
  std::vector<std::vector<Tensor>> grads;
  for (bool loop : {true, false}) {
    Scope root = Scope::NewRootScope();
    auto x = ops::Placeholder(root, DT_FLOAT);
    auto w = ops::Placeholder(root, DT_FLOAT);
    auto u = ops::Placeholder(root, DT_FLOAT);
    Output states = RnnStates(root, x, w, u, loop);
    auto diff = ops::Sub(root, states, target);
    auto loss = ops::Sum(root, ops::Reshape(root, ops::Square(root, diff), {-1}), 0);
    std::vector<Output> g;
    RILL_ASSERT_OK(AddSymbolicGradients(root, {loss}, {x, w, u}, &g));
    std::vector<Output> fetch = g;
    const Node* rec = nullptr;
    for (int id = 0; id < root.graph()->num_nodes(); ++id) {
      if (root.graph()->node(id)->type_string() == "_WhileRecord") rec = root.graph()->node(id);
    }
    ASSERT_EQ(rec != nullptr, loop);
    if (loop) {  // the logs of h and of the accumulator: h's values, then the accumulator's
      ASSERT_EQ(rec->attr<std::vector<int64_t>>("record"), (std::vector<int64_t>{0, 1, 2}));
      for (int k = 1; k <= 2; ++k) fetch.emplace_back(const_cast<Node*>(rec), 6 + 1 + k);
    }
    Session session(root);
    std::vector<Tensor> got;
    RILL_ASSERT_OK(session.Run({{x, xv}, {w, w0}, {u, u0}}, fetch, &got));
    if (loop) {
      EXPECT_EQ(got[3].NumElements(), kSteps * kBatch * kHidden);        // h: one per iteration
      EXPECT_EQ(got[4].NumElements(), (kSteps - 1) * kBatch * kHidden);  // final size
    }
    got.resize(3);
    grads.push_back(got);
  }
  for (int k = 0; k < 3; ++k) {
    ExpectTensorNear(grads[0][k], DT_FLOAT, grads[1][k].shape(), ToDoubles(grads[1][k]), 1e-5);
  }
}

}  // namespace control_flow_grad_test
}  // namespace
}  // namespace rill::testing
