#include "rill/runtime/gradient_checker.h"

#include <cmath>
#include <random>

#include "rill/core/status.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/gradients.h"
#include "rill/runtime/session.h"

namespace rill::gradient_checker_internal {
namespace {

std::vector<double> ToDoubles(const Tensor& t) {
  std::vector<double> v(static_cast<size_t>(t.NumElements()));
  VisitDataType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(t.base<T>()[i]);
  });
  return v;
}

void SetElement(Tensor* t, int64_t i, double value) {
  VisitDataType(t->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    t->base<T>()[i] = static_cast<T>(value);
  });
}

absl::Status CheckArgs(const OutputList& xs, const std::vector<Tensor>& x_values,
                       const OutputList& ys, const std::vector<TensorShape>& y_shapes) {
  if (xs.size() != x_values.size() || ys.size() != y_shapes.size() || xs.empty() || ys.empty()) {
    return errors::InvalidArgument("gradient check: ", xs.size(), " xs with ", x_values.size(),
                                   " values, ", ys.size(), " ys with ", y_shapes.size(), " shapes");
  }
  for (size_t i = 0; i < xs.size(); ++i) {
    if (xs[i].node() == nullptr || xs[i].type() != x_values[i].dtype() ||
        !DataTypeIsFloating(xs[i].type()) || !x_values[i].IsInitialized()) {
      return errors::InvalidArgument("gradient check: x ", i, " ('", xs[i].name(), "', ",
                                     DataTypeString(xs[i].type()),
                                     ") needs a float value of its "
                                     "dtype, got ",
                                     x_values[i].DebugString());
    }
  }
  for (size_t i = 0; i < ys.size(); ++i) {
    if (ys[i].node() == nullptr || !DataTypeIsFloating(ys[i].type())) {
      return errors::InvalidArgument("gradient check: y ", i, " ('", ys[i].name(),
                                     "') is not a float output");
    }
  }
  return absl::OkStatus();
}

// Row-major: jacobian[x][x element][y element over all ys].
using Jacobian = std::vector<std::vector<std::vector<double>>>;

Jacobian ZeroJacobian(const std::vector<Tensor>& x_values, int64_t ny) {
  Jacobian jac(x_values.size());
  for (size_t i = 0; i < x_values.size(); ++i)
    jac[i].assign(x_values[i].NumElements(), std::vector<double>(ny, 0.0));
  return jac;
}

// The symbolic side: one run per y element, that element's gradient seed one.
absl::Status Symbolic(const Scope& scope, const OutputList& xs, const Session::FeedType& x_feeds,
                      const OutputList& ys, const std::vector<TensorShape>& y_shapes,
                      Jacobian* jac) {
  Scope s = scope.NewSubScope("gradient_check");
  OutputList seeds, grads;
  for (const Output& y : ys) seeds.push_back(ops::Placeholder(s, y.type()));
  RILL_RETURN_IF_ERROR(ops::AddSymbolicGradients(scope, ys, xs, seeds, &grads));
  // One run per y element fetches every gradient there is (NoGradient() stays zeros).
  OutputList fetched;
  std::vector<size_t> fetched_x;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (grads[i] == ops::NoGradient()) continue;
    fetched.push_back(grads[i]);
    fetched_x.push_back(i);
  }
  Session session(scope);
  int64_t col = 0;
  for (size_t yi = 0; yi < ys.size(); ++yi) {
    for (int64_t j = 0; j < y_shapes[yi].num_elements(); ++j, ++col) {
      Session::FeedType feeds = x_feeds;
      for (size_t k = 0; k < ys.size(); ++k) {
        Tensor seed(ys[k].type(), y_shapes[k]);
        for (int64_t e = 0; e < seed.NumElements(); ++e) SetElement(&seed, e, k == yi && e == j);
        feeds.emplace(seeds[k], seed);
      }
      std::vector<Tensor> out;
      RILL_RETURN_IF_ERROR(session.Run(feeds, fetched, &out));
      for (size_t f = 0; f < fetched.size(); ++f) {
        const size_t i = fetched_x[f];
        const std::vector<double> g = ToDoubles(out[f]);
        if (g.size() != (*jac)[i].size()) {
          return errors::InvalidArgument("gradient check: the gradient for x ", i, " has ",
                                         g.size(), " elements, x has ", (*jac)[i].size());
        }
        for (size_t e = 0; e < g.size(); ++e) (*jac)[i][e][col] = g[e];
      }
    }
  }
  return absl::OkStatus();
}

// The numeric side: central differences, each x element stepped by +-delta.
absl::Status Numeric(const Scope& scope, const OutputList& xs, const std::vector<Tensor>& x_values,
                     const OutputList& ys, double delta, Jacobian* jac) {
  Session session(scope);
  auto run = [&](const std::vector<Tensor>& values, std::vector<double>* y) -> absl::Status {
    Session::FeedType feeds;
    for (size_t i = 0; i < xs.size(); ++i) feeds.emplace(xs[i], values[i]);
    std::vector<Tensor> out;
    RILL_RETURN_IF_ERROR(session.Run(feeds, ys, &out));
    y->clear();
    for (const Tensor& t : out)
      for (double v : ToDoubles(t)) y->push_back(v);
    return absl::OkStatus();
  };
  for (size_t i = 0; i < xs.size(); ++i) {
    // x i stepped one element at a time in a copy of its own (the caller's values stay).
    std::vector<Tensor> stepped = x_values;
    stepped[i] = x_values[i].DeepCopy();
    const std::vector<double> x = ToDoubles(x_values[i]);
    for (int64_t e = 0; e < x_values[i].NumElements(); ++e) {
      std::vector<double> yp, ym;
      SetElement(&stepped[i], e, x[e] + delta);
      RILL_RETURN_IF_ERROR(run(stepped, &yp));
      SetElement(&stepped[i], e, x[e] - delta);
      RILL_RETURN_IF_ERROR(run(stepped, &ym));
      SetElement(&stepped[i], e, x[e]);
      if (yp.size() != (*jac)[i][e].size()) {
        return errors::InvalidArgument("gradient check: the ys have ", yp.size(),
                                       " elements, their shapes say ", (*jac)[i][e].size());
      }
      for (size_t c = 0; c < yp.size(); ++c) (*jac)[i][e][c] = (yp[c] - ym[c]) / (2 * delta);
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status MaxJacobianError(const Scope& scope, const OutputList& xs,
                              const std::vector<Tensor>& x_values, const OutputList& ys,
                              const std::vector<TensorShape>& y_shapes, double delta,
                              double* max_error) {
  RILL_RETURN_IF_ERROR(scope.status());
  RILL_RETURN_IF_ERROR(CheckArgs(xs, x_values, ys, y_shapes));
  int64_t ny = 0, nx = 0;
  for (const TensorShape& s : y_shapes) ny += s.num_elements();
  for (const Tensor& x : x_values) nx += x.NumElements();
  // Two dense Jacobians of doubles, and a run per element on each side.
  if (nx * ny > (int64_t{1} << 22)) {
    return errors::InvalidArgument("gradient check: a ", nx, " x ", ny,
                                   " Jacobian is too large; check smaller shapes");
  }
  Session::FeedType x_feeds;
  for (size_t i = 0; i < xs.size(); ++i) x_feeds.emplace(xs[i], x_values[i]);
  Jacobian symbolic = ZeroJacobian(x_values, ny), numeric = symbolic;
  RILL_RETURN_IF_ERROR(Symbolic(scope, xs, x_feeds, ys, y_shapes, &symbolic));
  RILL_RETURN_IF_ERROR(Numeric(scope, xs, x_values, ys, delta, &numeric));
  double worst = 0;
  for (size_t i = 0; i < symbolic.size(); ++i)
    for (size_t e = 0; e < symbolic[i].size(); ++e)
      for (int64_t c = 0; c < ny; ++c) {
        const double d = std::abs(symbolic[i][e][c] - numeric[i][e][c]);
        worst = std::max(worst, std::isnan(d) ? INFINITY : d);
      }
  *max_error = worst;
  return absl::OkStatus();
}

absl::StatusOr<std::vector<Tensor>> RandomValues(DataType dt,
                                                 const std::vector<TensorShape>& shapes) {
  std::mt19937 gen(20161123);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Tensor> out;
  for (const TensorShape& shape : shapes) {
    RILL_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(dt, shape));
    for (int64_t e = 0; e < t.NumElements(); ++e) SetElement(&t, e, u(gen));
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace rill::gradient_checker_internal
