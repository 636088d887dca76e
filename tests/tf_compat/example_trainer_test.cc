// TensorFlow's tensorflow/cc/tutorials/example_trainer.cc as a test, rewritten against rill
// (the graph and the computation are TensorFlow's; the code is ours): the largest
// eigenvalue of A = [3 2; -1 0] by power iteration, x <- A x / |A x|, run by many steps on
// many sessions at once, each session made from the graph written out as a file's text.
// rill: TensorFlow's program serializes a GraphDef and builds each Session with
// Session::Create(def); rill writes its own graph text (GraphToText) and loads it into a
// new Scope (GraphFromText). TensorFlow's threads come from thread::ThreadPool; std::thread
// here. TensorFlow prints each step; the test checks lambda reaches 2.
#include <cmath>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/tf_compat.h"
#include "rill/rill.h"

namespace rill {
namespace {

struct Options {
  int num_concurrent_sessions = 3;
  int num_concurrent_steps = 3;
  int num_iterations = 40;
};

std::string CreateGraphText() {
  Scope root = Scope::NewRootScope();
  using namespace ::rill::ops;  // NOLINT(build/namespaces)
  auto a = Const(root, {{3.f, 2.f}, {-1.f, 0.f}});
  auto x = Const(root.WithOpName("x"), {{1.f}, {1.f}});
  auto y = MatMul(root.WithOpName("y"), a, x);
  auto y2 = Square(root, y);
  auto y2_sum = Sum(root, y2, 0);
  auto y_norm = Sqrt(root, y2_sum);
  Div(root.WithOpName("y_normalized"), y, y_norm);
  TF_CHECK_OK(root.status());
  absl::StatusOr<std::string> text = GraphToText(*root.graph());
  TF_CHECK_OK(text.status());
  return *text;
}

// (x' A x) / (x' x) = x' y, with x of norm 1.
float Lambda(const Tensor& x, const Tensor& y) {
  return x.flat<float>()(0) * y.flat<float>()(0) + x.flat<float>()(1) * y.flat<float>()(1);
}

void ConcurrentSteps(const Options& opts, const std::string& graph, int session_index,
                     std::vector<float>* lambdas) {
  Scope root = Scope::NewRootScope();
  TF_ASSERT_OK(GraphFromText(graph, root));
  Session session(root);
  std::vector<std::thread> steps;
  for (int step = 0; step < opts.num_concurrent_steps; ++step) {
    steps.emplace_back([&, step]() {
      std::mt19937 rng(session_index * 100 + step);
      std::uniform_real_distribution<float> u(0.1f, 1.0f);
      Tensor x(DT_FLOAT, TensorShape({2, 1}));
      x.flat<float>()(0) = u(rng);
      x.flat<float>()(1) = u(rng);
      const float inv_norm = 1 / std::sqrt(x.flat<float>()(0) * x.flat<float>()(0) +
                                           x.flat<float>()(1) * x.flat<float>()(1));
      x.flat<float>() = x.flat<float>() * inv_norm;
      float lambda = 0;
      for (int iter = 0; iter < opts.num_iterations; ++iter) {
        std::vector<Tensor> outputs;
        TF_ASSERT_OK(session.Run({{"x", x}}, {"y:0", "y_normalized:0"}, {}, &outputs));
        ASSERT_EQ(size_t{2}, outputs.size());
        lambda = Lambda(x, outputs[0]);
        x = outputs[1];
      }
      (*lambdas)[session_index * opts.num_concurrent_steps + step] = lambda;
    });
  }
  for (std::thread& t : steps) t.join();
}

TEST(ExampleTrainer, ConcurrentSessionsFindTheLargestEigenvalue) {
  const Options opts;
  const std::string graph = CreateGraphText();
  std::vector<float> lambdas(opts.num_concurrent_sessions * opts.num_concurrent_steps, 0);
  std::vector<std::thread> sessions;
  for (int i = 0; i < opts.num_concurrent_sessions; ++i) {
    sessions.emplace_back([&, i]() { ConcurrentSteps(opts, graph, i, &lambdas); });
  }
  for (std::thread& t : sessions) t.join();
  for (float lambda : lambdas) EXPECT_NEAR(lambda, 2.0f, 1e-4);  // A's eigenvalues: 2 and 1
}

}  // namespace
}  // namespace rill
