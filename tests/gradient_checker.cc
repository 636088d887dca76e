#include "gradient_checker.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace rill::testing {
namespace {

struct Built {
  Scope scope = Scope::NewRootScope();
  std::vector<Output> xs;
  Output y;
};

absl::Status Build(const GradBuildFn& build, const std::vector<Tensor>& inputs, DataType dt,
                   bool known, Built* b) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    DataType in_dt = DataTypeIsFloating(inputs[i].dtype()) ? dt : inputs[i].dtype();
    auto attrs = known ? ops::Placeholder::Shape(inputs[i].shape()) : ops::Placeholder::Attrs();
    b->xs.push_back(ops::Placeholder(b->scope.WithOpName(absl::StrCat("x", i)), in_dt, attrs));
  }
  b->y = build(b->scope, b->xs);
  return b->scope.status();
}

Tensor Convert(const Tensor& t, DataType dt) {
  if (!DataTypeIsFloating(t.dtype())) return t;
  return FromDoubles(dt, t.shape(), ToDoubles(t));
}

Session::FeedType Feeds(const Built& b, const std::vector<Tensor>& values, DataType dt) {
  Session::FeedType f;
  for (size_t i = 0; i < values.size(); ++i) f.emplace(b.xs[i], Convert(values[i], dt));
  return f;
}

}  // namespace

absl::StatusOr<double> GradientError(const GradBuildFn& build, const std::vector<Tensor>& inputs,
                                     DataType dt, const GradCheckOptions& options) {
  // Numeric Jacobian, float64: column per input element.
  Built num;
  RILL_RETURN_IF_ERROR(Build(build, inputs, DT_DOUBLE, options.known_shapes, &num));
  Session num_session(num.scope);
  std::vector<Tensor> out;
  RILL_RETURN_IF_ERROR(num_session.Run(Feeds(num, inputs, DT_DOUBLE), {num.y}, &out));
  const Tensor y0 = out[0];
  const int64_t ny = y0.NumElements();

  Built sym;
  RILL_RETURN_IF_ERROR(Build(build, inputs, dt, options.known_shapes, &sym));
  auto dy = ops::Placeholder(sym.scope.WithOpName("dy"), sym.y.type());
  std::vector<Output> grads;
  std::vector<Output> xs;
  std::vector<int> x_index;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!DataTypeIsFloating(inputs[i].dtype())) continue;  // labels, indices
    xs.push_back(sym.xs[i]);
    x_index.push_back(static_cast<int>(i));
  }
  RILL_RETURN_IF_ERROR(ops::AddSymbolicGradients(sym.scope, {sym.y}, xs, {dy}, &grads));
  Session sym_session(sym.scope);

  double worst = 0;
  for (size_t k = 0; k < xs.size(); ++k) {
    const int i = x_index[k];
    const int64_t nx = inputs[i].NumElements();
    std::vector<double> numeric(ny * nx), symbolic(ny * nx);
    for (int64_t e = 0; e < nx; ++e) {
      std::vector<Tensor> plus = inputs, minus = inputs;
      std::vector<double> p = ToDoubles(inputs[i]), m = p;
      p[e] += options.delta;
      m[e] -= options.delta;
      plus[i] = FromDoubles(DT_DOUBLE, inputs[i].shape(), p);
      minus[i] = FromDoubles(DT_DOUBLE, inputs[i].shape(), m);
      std::vector<Tensor> yp, ym;
      RILL_RETURN_IF_ERROR(num_session.Run(Feeds(num, plus, DT_DOUBLE), {num.y}, &yp));
      RILL_RETURN_IF_ERROR(num_session.Run(Feeds(num, minus, DT_DOUBLE), {num.y}, &ym));
      auto a = ToDoubles(yp[0]), b = ToDoubles(ym[0]);
      for (int64_t j = 0; j < ny; ++j) numeric[j * nx + e] = (a[j] - b[j]) / (2 * options.delta);
    }
    // NoGradient() (every path stopped) is a Jacobian of zeros: the numeric one must agree.
    for (int64_t j = 0; j < ny && grads[k] != NoGradient(); ++j) {
      std::vector<double> unit(ny, 0.0);
      unit[j] = 1;
      Session::FeedType f = Feeds(sym, inputs, dt);
      f.emplace(dy, FromDoubles(sym.y.type(), y0.shape(), unit));
      std::vector<Tensor> g;
      RILL_RETURN_IF_ERROR(sym_session.Run(f, {grads[k]}, &g));
      if (g[0].shape() != inputs[i].shape()) {
        return errors::Internal("gradient for input ", i, " has shape ", g[0].shape().DebugString(),
                                ", the input ", inputs[i].shape().DebugString());
      }
      auto row = ToDoubles(g[0]);
      for (int64_t e = 0; e < nx; ++e) symbolic[j * nx + e] = row[e];
    }
    for (size_t q = 0; q < numeric.size(); ++q) {
      double err = std::abs(numeric[q] - symbolic[q]) / std::max(1.0, std::abs(numeric[q]));
      if (std::isnan(err)) err = 1e30;
      worst = std::max(worst, err);
    }
  }
  return worst;
}

void ExpectGradientMatchesNumeric(const GradBuildFn& build, const std::vector<Tensor>& inputs) {
  for (bool known : {true, false}) {
    for (DataType dt : {DT_DOUBLE, DT_FLOAT}) {
      SCOPED_TRACE(std::string(known ? "known shapes, " : "unknown shapes, ") + DataTypeString(dt));
      GradCheckOptions opt;
      opt.known_shapes = known;
      auto err = GradientError(build, inputs, dt, opt);
      ASSERT_TRUE(err.ok()) << err.status();
      EXPECT_LT(*err, dt == DT_DOUBLE ? 1e-6 : 1e-3);
    }
  }
}

std::set<std::string>& GradTestedOps() {
  static auto* s = new std::set<std::string>;
  return *s;
}

}  // namespace rill::testing
