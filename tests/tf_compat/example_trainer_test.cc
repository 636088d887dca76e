// TensorFlow's tensorflow/cc/tutorials/example_trainer.cc as a test, rewritten against rill
// (the graph, the computation and the API calls are TensorFlow's; the code is ours): the
// largest eigenvalue of A = [3 2; -1 0] by power iteration, x <- A x / |A x|, run by many
// steps on many sessions at once, each session made from the graph's GraphDef.
// rill: a GraphDef is rill's graph text (docs/guide.md, Porting). TensorFlow's program
// prints each step and takes its counts from flags; the test uses smaller counts and
// checks that every step's lambda reaches 2.
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/tf_compat.h"
#include "rill/rill.h"

namespace rill {
namespace example {

struct Options {
  int num_concurrent_sessions = 3;  // The number of concurrent sessions
  int num_concurrent_steps = 3;     // The number of concurrent steps
  int num_iterations = 40;          // Each step repeats this many times
  bool use_gpu = false;             // Whether to use gpu in the training
};

// A = [3 2; -1 0]; x = rand(2, 1); repeat x = y / y.norm(); y = A * x; end
GraphDef CreateGraphDef() {
  Scope root = Scope::NewRootScope();
  using namespace ::rill::ops;  // NOLINT(build/namespaces)
  auto a = Const(root, {{3.f, 2.f}, {-1.f, 0.f}});
  auto x = Const(root.WithOpName("x"), {{1.f}, {1.f}});
  auto y = MatMul(root.WithOpName("y"), a, x);
  auto y2 = Square(root, y);
  auto y2_sum = Sum(root, y2, 0);
  auto y_norm = Sqrt(root, y2_sum);
  Div(root.WithOpName("y_normalized"), y, y_norm);
  GraphDef def;
  TF_CHECK_OK(root.ToGraphDef(&def));
  return def;
}

// (x' A x) / (x' x) = x' y, with x' x = 1.
float Lambda(const Tensor& x, const Tensor& y) {
  auto x_flat = x.flat<float>();
  auto y_flat = y.flat<float>();
  Eigen::Tensor<float, 0, Eigen::RowMajor> lambda = (x_flat * y_flat).sum();
  return lambda();
}

void ConcurrentSteps(const Options* opts, int session_index, std::vector<float>* lambdas) {
  SessionOptions options;
  std::unique_ptr<Session> session(NewSession(options));
  GraphDef def = CreateGraphDef();
  if (options.target.empty()) {
    graph::SetDefaultDevice(opts->use_gpu ? "/gpu:0" : "/cpu:0", &def);
  }
  TF_CHECK_OK(session->Create(def));
  const int M = opts->num_concurrent_steps;
  {
    thread::ThreadPool step_threads(Env::Default(), "trainer", M);
    for (int step = 0; step < M; ++step) {
      step_threads.Schedule([&session, opts, session_index, step, lambdas]() {
        // Randomly initialize the input.
        Tensor x(DT_FLOAT, TensorShape({2, 1}));
        auto x_flat = x.flat<float>();
        x_flat.setRandom();
        x_flat = x_flat + 0.1f;  // rill: keeps x off A's second eigenvector's direction
        Eigen::Tensor<float, 0, Eigen::RowMajor> inv_norm = x_flat.square().sum().sqrt().inverse();
        x_flat = x_flat * inv_norm();
        std::vector<Tensor> outputs;
        float lambda = 0;
        for (int iter = 0; iter < opts->num_iterations; ++iter) {
          outputs.clear();
          TF_CHECK_OK(session->Run({{"x", x}}, {"y:0", "y_normalized:0"}, {}, &outputs));
          CHECK_EQ(size_t{2}, outputs.size());
          lambda = Lambda(x, outputs[0]);
          x = outputs[1];  // Copies y_normalized to x.
        }
        (*lambdas)[session_index * opts->num_concurrent_steps + step] = lambda;
      });
    }
  }  // rill: the pool is destroyed (its steps finish) before the Session closes
  TF_CHECK_OK(session->Close());
}

TEST(ExampleTrainer, ConcurrentSessionsFindTheLargestEigenvalue) {
  const Options opts;
  std::vector<float> lambdas(opts.num_concurrent_sessions * opts.num_concurrent_steps, 0);
  {
    thread::ThreadPool session_threads(Env::Default(), "trainer", opts.num_concurrent_sessions);
    for (int i = 0; i < opts.num_concurrent_sessions; ++i) {
      session_threads.Schedule([&opts, i, &lambdas] { ConcurrentSteps(&opts, i, &lambdas); });
    }
  }
  for (float lambda : lambdas) EXPECT_NEAR(lambda, 2.0f, 1e-4);  // A's eigenvalues: 2 and 1
}

}  // namespace example
}  // namespace rill
