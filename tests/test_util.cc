#include "test_util.h"

#include <algorithm>
#include <cmath>

namespace rill::testing {

Tensor FromDoubles(DataType dt, const TensorShape& shape, const std::vector<double>& v) {
  Tensor t(dt, shape);
  VisitDataType(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (size_t i = 0; i < v.size(); ++i) t.base<T>()[i] = static_cast<T>(v[i]);
  });
  return t;
}

Tensor RandomTensor(DataType dt, const TensorShape& shape, double lo, double hi, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> v(shape.num_elements());
  for (double& x : v) {
    x = u(gen);
    if (!DataTypeIsFloating(dt)) x = std::round(x);
    if (dt == DT_BOOL) x = x > (lo + hi) / 2;
  }
  return FromDoubles(dt, shape, v);
}

Tensor DistinctTensor(const TensorShape& shape, uint32_t seed) {
  std::vector<double> v(shape.num_elements());
  for (size_t i = 0; i < v.size(); ++i) v[i] = 0.05 * static_cast<double>(i);
  std::mt19937 rng(seed);
  std::shuffle(v.begin(), v.end(), rng);
  return FromDoubles(DT_DOUBLE, shape, v);
}

std::vector<double> ToDoubles(const Tensor& t) {
  std::vector<double> v(t.NumElements());
  VisitDataType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(t.base<T>()[i]);
  });
  return v;
}

namespace {
absl::StatusOr<Tensor> Run(const BuildFn& build, const std::vector<Tensor>& inputs, bool fed) {
  Scope root = Scope::NewRootScope();
  std::vector<Output> in;
  Session::FeedType feeds;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (fed) {
      auto p = ops::Placeholder(root.WithOpName("in" + std::to_string(i)), inputs[i].dtype());
      in.push_back(p);
      feeds.emplace(p.output, Input::Initializer(inputs[i]));
    } else {
      in.push_back(ops::Const(root.WithOpName("in" + std::to_string(i)), inputs[i]));
    }
  }
  Output out = build(root, in);
  if (!root.ok()) return root.status();
  Session session(root);
  std::vector<Tensor> outputs;
  RILL_RETURN_IF_ERROR(session.Run(feeds, {out}, &outputs));
  return outputs[0];
}
}  // namespace

absl::StatusOr<Tensor> RunOp(const BuildFn& build, const std::vector<Tensor>& inputs) {
  return Run(build, inputs, true);
}
absl::StatusOr<Tensor> RunOpConst(const BuildFn& build, const std::vector<Tensor>& inputs) {
  return Run(build, inputs, false);
}

double Tolerance(DataType dt) {
  if (dt == DT_FLOAT) return 1e-5;
  if (dt == DT_DOUBLE) return 1e-12;
  return 0;
}

void ExpectTensorNear(const Tensor& got, DataType dt, const TensorShape& shape,
                      const std::vector<double>& want, double rtol) {
  ASSERT_EQ(got.dtype(), dt) << DataTypeString(got.dtype());
  ASSERT_EQ(got.shape(), shape) << got.shape().DebugString() << " vs " << shape.DebugString();
  std::vector<double> g = ToDoubles(got);
  ASSERT_EQ(g.size(), want.size());
  for (size_t i = 0; i < g.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(g[i])) << "element " << i;
      continue;
    }
    if (std::isinf(want[i])) {
      EXPECT_EQ(g[i], want[i]) << "element " << i;
      continue;
    }
    double tol = rtol * std::max(1.0, std::abs(want[i]));
    EXPECT_NEAR(g[i], want[i], tol) << "element " << i << " of " << shape.DebugString();
  }
}

bool HaveGpu() {
  for (const auto& d : DeviceSet::Local().devices())
    if (d->device_type() == DEVICE_GPU) return true;
  return false;
}

DeviceSet CpuOnly() {
  DeviceSet all = DeviceSet::Local(), cpu;
  for (const auto& d : all.devices())
    if (d->device_type() == DEVICE_CPU) cpu.Add(d);
  return cpu;
}

std::set<std::string>& TestedOps() {
  static auto* s = new std::set<std::string>;
  return *s;
}

std::multiset<std::string> PlanOps(const Session& session, const CallableOptions& signature) {
  absl::StatusOr<GraphView> plan = session.ViewPlan(signature);
  EXPECT_TRUE(plan.ok()) << plan.status();
  std::multiset<std::string> ops;
  if (plan.ok()) {
    for (const GraphViewNode& n : plan->nodes) ops.insert(n.op);
  }
  return ops;
}

}  // namespace rill::testing
