// The adaptive optimizer updates (ApplyAdagrad, ApplyAdagradV2, ApplyRMSProp,
// ApplyCenteredRMSProp, ApplyAdadelta, ApplyAdaMax) against their formulas written out here
// in float64, three steps each in float32 and float64; the optimizers built on them
// against the same formulas through Minimize; Keras's optimizer names; op cases.
#include <algorithm>
#include <cmath>

#include "support/op_tester.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace adaptive_training_test {

using namespace ::rill::ops;  // NOLINT

MarkTested tested({"ApplyAdagrad", "ApplyAdagradV2", "ApplyRMSProp", "ApplyCenteredRMSProp",
                   "ApplyAdadelta", "ApplyAdaMax"});

enum Kind { kAdagrad, kAdagradV2, kRMSProp, kCentered, kAdadelta, kAdaMax, kKinds };
const char* const kNames[] = {"Adagrad", "AdagradV2", "RMSProp", "Centered", "Adadelta", "AdaMax"};

// One element's state: the variable and up to three slots.
struct State {
  double var, s[3];
};

// TensorFlow's formulas; a = the op's scalars in order.
void Step(Kind k, const std::vector<double>& a, double g, bool update_slots, State* st) {
  double &w = st->var, *s = st->s;
  switch (k) {
    case kAdagrad:
    case kAdagradV2:
      if (update_slots) s[0] += g * g;
      w -= k == kAdagrad ? a[0] * g / std::sqrt(s[0]) : a[0] * g / (std::sqrt(s[0]) + a[1]);
      break;
    case kRMSProp:
      s[0] = a[1] * s[0] + (1 - a[1]) * g * g;
      s[1] = a[2] * s[1] + a[0] * g / std::sqrt(s[0] + a[3]);
      w -= s[1];
      break;
    case kCentered:
      s[0] = a[1] * s[0] + (1 - a[1]) * g;      // mg
      s[1] = a[1] * s[1] + (1 - a[1]) * g * g;  // ms
      s[2] = a[2] * s[2] + a[0] * g / std::sqrt(s[1] - s[0] * s[0] + a[3]);
      w -= s[2];
      break;
    case kAdadelta: {
      s[0] = a[1] * s[0] + (1 - a[1]) * g * g;
      const double u = std::sqrt(s[1] + a[2]) / std::sqrt(s[0] + a[2]) * g;
      w -= a[0] * u;
      s[1] = a[1] * s[1] + (1 - a[1]) * u * u;
      break;
    }
    default:  // AdaMax: beta1_power, lr, beta1, beta2, epsilon
      s[0] = a[2] * s[0] + (1 - a[2]) * g;
      s[1] = std::max(a[3] * s[1], std::abs(g));
      w -= a[1] / (1 - a[0]) * s[0] / (s[1] + a[4]);
      break;
  }
}

int Refs(Kind k) { return k == kAdagrad || k == kAdagradV2 ? 2 : (k == kCentered ? 4 : 3); }
std::vector<double> Scalars(Kind k) {
  switch (k) {
    case kAdagrad:
      return {0.1};
    case kAdagradV2:
      return {0.1, 1e-3};
    case kRMSProp:
    case kCentered:
      return {0.05, 0.9, 0.5, 1e-6};
    case kAdadelta:
      return {1.0, 0.95, 1e-6};
    default:
      return {0.9, 0.02, 0.9, 0.999, 1e-7};
  }
}

// The update op of kind k over variables vars (var first) with scalar constants.
Output Update(const Scope& s, Kind k, const std::vector<Output>& v, const Output& g,
              const std::vector<Output>& a, bool update_slots = true) {
  switch (k) {
    case kAdagrad:
      return ApplyAdagrad(s, v[0], v[1], a[0], g, ApplyAdagrad::UpdateSlots(update_slots));
    case kAdagradV2:
      return ApplyAdagradV2(s, v[0], v[1], a[0], a[1], g,
                            ApplyAdagradV2::UpdateSlots(update_slots));
    case kRMSProp:
      return ApplyRMSProp(s, v[0], v[1], v[2], a[0], a[1], a[2], a[3], g);
    case kCentered:
      return ApplyCenteredRMSProp(s, v[0], v[1], v[2], v[3], a[0], a[1], a[2], a[3], g);
    case kAdadelta:
      return ApplyAdadelta(s, v[0], v[1], v[2], a[0], a[1], a[2], g);
    default:
      return ApplyAdaMax(s, v[0], v[1], v[2], a[0], a[1], a[2], a[3], a[4], g);
  }
}

TEST(AdaptiveUpdates, FollowTheirFormulasForThreeSteps) {
  const std::vector<double> w0 = {0.5, -1, 2, 0}, g = {0.1, -0.2, 0.3, 0};
  const std::vector<double> slot0 = {0.2, 0.1, 0.3, 0.4};  // positive: Adagrad divides by it
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    for (int ki = 0; ki < kKinds; ++ki) {
      for (bool update_slots : {true, false}) {
        const Kind k = static_cast<Kind>(ki);
        if (!update_slots && k != kAdagrad && k != kAdagradV2) continue;
        SCOPED_TRACE(std::string(kNames[k]) + " " + DataTypeString(dt));
        Scope s = Scope::NewRootScope();
        std::vector<Output> vars = {Variable(s, FromDoubles(dt, {4}, w0))};
        for (int r = 1; r < Refs(k); ++r) {
          // Centered RMSProp's mean gradient starts at 0; every other slot at slot0.
          const bool zero = k == kCentered && r == 1;
          vars.push_back(Variable(s, FromDoubles(dt, {4}, zero ? std::vector<double>(4) : slot0)));
        }
        std::vector<Output> a;
        for (double x : Scalars(k)) a.push_back(Const(s, FromDoubles(dt, {}, {x})));
        Output step = Update(s, k, vars, Const(s, FromDoubles(dt, {4}, g)), a, update_slots);
        ASSERT_TRUE(s.ok()) << s.status();
        Session session(s);
        ASSERT_TRUE(session.Run({}, {}, {GlobalVariablesInitializer(s)}, nullptr).ok());
        std::vector<State> want(4);
        for (int i = 0; i < 4; ++i) {
          want[i] = {w0[i], {k == kCentered ? 0 : slot0[i], slot0[i], slot0[i]}};
        }
        for (int t = 0; t < 3; ++t) {
          std::vector<Tensor> out;
          ASSERT_TRUE(session.Run({}, vars, {step.op()}, &out).ok());
          for (int i = 0; i < 4; ++i) Step(k, Scalars(k), g[i], update_slots, &want[i]);
          std::vector<double> w(4);
          for (int i = 0; i < 4; ++i) w[i] = want[i].var;
          ExpectTensorNear(out[0], dt, {4}, w, dt == DT_FLOAT ? 1e-5 : 1e-12);
          for (int r = 1; r < Refs(k); ++r) {
            for (int i = 0; i < 4; ++i) w[i] = want[i].s[r - 1];
            ExpectTensorNear(out[r], dt, {4}, w, dt == DT_FLOAT ? 1e-5 : 1e-12);
          }
        }
      }
    }
  }
}

// Minimize over loss = sum((w - t)^2) / 2 (gradient w - t) takes the steps of the formulas,
// slots starting where each optimizer starts them.
TEST(AdaptiveOptimizers, MinimizeTakesTheFormulasSteps) {
  const std::vector<double> w0 = {1, -2, 0.5}, target = {0.5, 0.5, 0.5};
  struct Case {
    std::shared_ptr<Optimizer> opt;
    Kind kind;
    std::vector<double> scalars;  // AdaMax's beta1_power is set per step below
    double slot_init;
  };
  const std::vector<Case> cases = {
      {std::make_shared<AdagradOptimizer>(0.1), kAdagrad, {0.1}, 0.1},
      {std::make_shared<AdagradOptimizer>(0.1, 0.2, 1e-7), kAdagradV2, {0.1, 1e-7}, 0.2},
      {std::make_shared<RMSPropOptimizer>(0.01, 0.9, 0.5), kRMSProp, {0.01, 0.9, 0.5, 1e-10}, 1},
      {std::make_shared<RMSPropOptimizer>(0.01, 0.9, 0, 1e-7, true, 0),
       kCentered,
       {0.01, 0.9, 0, 1e-7},
       0},
      {std::make_shared<AdadeltaOptimizer>(1.0), kAdadelta, {1.0, 0.95, 1e-8}, 0},
      {std::make_shared<AdaMaxOptimizer>(0.1), kAdaMax, {0.9, 0.1, 0.9, 0.999, 1e-7}, 0}};
  for (const Case& c : cases) {
    SCOPED_TRACE(kNames[c.kind]);
    Scope s = Scope::NewRootScope();
    auto w = Variable(s, FromDoubles(DT_DOUBLE, {3}, w0));
    auto loss =
        Mul(s, Sum(s, Square(s, Sub(s, w, Const(s, FromDoubles(DT_DOUBLE, {3}, target)))), 0),
            Const(s, 0.5));
    Operation train = c.opt->Minimize(s, loss);
    ASSERT_TRUE(s.ok()) << s.status();
    Session session(s);
    ASSERT_TRUE(session.Run({}, {}, {GlobalVariablesInitializer(s)}, nullptr).ok());
    std::vector<State> want(3);
    for (int i = 0; i < 3; ++i) {
      // RMSProp's slots: ms, mom (centered: mg, ms, mom; ms from slot_init).
      want[i] = {w0[i], {c.kind == kCentered ? 0 : c.slot_init, c.slot_init, 0}};
      if (c.kind == kRMSProp) want[i].s[1] = 0;
    }
    std::vector<double> a = c.scalars;
    for (int t = 0; t < 4; ++t) {
      ASSERT_TRUE(session.Run({}, {}, {train}, nullptr).ok());
      for (int i = 0; i < 3; ++i) Step(c.kind, a, want[i].var - target[i], true, &want[i]);
      if (c.kind == kAdaMax) a[0] *= a[2];
      std::vector<Tensor> out;
      ASSERT_TRUE(session.Run({}, {w}, &out).ok());
      std::vector<double> got = ToDoubles(out[0]);
      for (int i = 0; i < 3; ++i) EXPECT_NEAR(got[i], want[i].var, 1e-12) << t << " " << i;
    }
  }
}

TEST(AdaptiveOptimizers, KerasNamesCompileAndTrain) {
  Tensor x = RandomTensor(DT_FLOAT, {32, 3}, -1, 1, 70);
  Tensor y(DT_INT64, TensorShape({32}));
  for (int i = 0; i < 32; ++i) y.flat<int64_t>()(i) = x.flat<float>()(3 * i) > 0 ? 1 : 0;
  for (const char* name : {"rmsprop", "adagrad", "adadelta", "adamax"}) {
    SCOPED_TRACE(name);
    keras::Sequential model;
    model.Add(std::make_shared<keras::Dense>(2, "softmax"));
    ASSERT_TRUE(model.Compile(name, "sparse_categorical_crossentropy").ok());
    keras::FitOptions opt;
    opt.verbose = 0;
    opt.epochs = 3;
    opt.batch_size = 8;
    auto h = model.Fit(x, y, opt);
    ASSERT_TRUE(h.ok()) << h.status();
    const auto& loss = h->history.at("loss");
    // Adadelta at Keras's 0.001 barely moves; every other one goes down.
    if (std::string(name) != "adadelta") {
      EXPECT_LT(loss.back(), loss.front());
    }
    EXPECT_TRUE(std::isfinite(loss.back()));
  }
  keras::Sequential model;
  model.Add(std::make_shared<keras::Dense>(2, "softmax"));
  absl::Status st = model.Compile("nadam", "sparse_categorical_crossentropy");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("rmsprop"), std::string::npos) << st;
}

Output Var(const Scope& s, const Output& like) {
  return ops::Variable(s, PartialTensorShape(), like.type());
}

// Op case of kind k: in = {var, grad, slot init, scalars...}; each slot set to the slot init
// (its square root for Centered's mean gradient, so ms - mg^2 stays positive).
OpCase UpdateCase(Kind k, DataType dt) {
  std::vector<Tensor> in = {RandomTensor(dt, {6, 4}, -1, 1, 71),
                            RandomTensor(dt, {6, 4}, -1, 1, 72),
                            RandomTensor(dt, {6, 4}, 0.5, 1, 73)};
  for (double a : Scalars(k)) in.push_back(FromDoubles(dt, {}, {a}));
  BuildFn f = [k](const Scope& s, const std::vector<Output>& x) -> Output {
    std::vector<Output> vars = {Var(s, x[0])};
    std::vector<std::pair<Output, Output>> init = {{vars[0], x[0]}};
    for (int r = 1; r < Refs(k); ++r) {
      vars.push_back(Var(s, x[0]));
      const bool mean_gradient = k == kCentered && r == 1;
      init.emplace_back(vars.back(), mean_gradient
                                         ? Output(Mul(s, x[2], Cast(s, Const(s, 0.5), x[2].type())))
                                         : x[2]);
    }
    std::vector<Operation> inits;
    for (const auto& [v, value] : init) {
      inits.push_back(Assign(s, v, value, Assign::ValidateShape(false)).operation);
    }
    std::vector<Output> a(x.begin() + 3, x.end());
    return Update(s.WithControlDependencies(inits), k, vars, x[1], a);
  };
  return {std::string(kNames[k]) + " " + DataTypeString(dt), f, in};
}

std::vector<OpCase> Cases() {
  std::vector<OpCase> c;
  for (int k = 0; k < kKinds; ++k) {
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) c.push_back(UpdateCase(static_cast<Kind>(k), dt));
  }
  return c;
}

}  // namespace adaptive_training_test
}  // namespace

RILL_OP_CASES(adaptive_training, adaptive_training_test::Cases);

}  // namespace rill::testing
