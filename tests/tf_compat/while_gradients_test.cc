// The cases of TensorFlow's tensorflow/cc/framework/while_gradients_test.cc, rewritten
// against rill (loops, inputs and expected gradients are TensorFlow's; the code is ours).
// Integer loop variables are differentiated, as there.
// rill: left out is MultipleDevices, which asks for two CPU devices (rill has one CPU
// device per Session; a loop's functions are placed like any node).
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace while_gradients_test {

class WhileGradientsTest : public ::testing::Test {
 protected:
  WhileGradientsTest() : scope_(Scope::NewRootScope()) {}

  void Init(int num_inputs, DataType dtype = DT_INT32) {
    for (int i = 0; i < num_inputs; ++i) inputs_.push_back(ops::Placeholder(scope_, dtype));
  }

  void CreateLoop(const ops::CondGraphBuilderFn& cond, const ops::BodyGraphBuilderFn& body,
                  const std::vector<Output>* inputs = nullptr) {
    TF_ASSERT_OK(ops::BuildWhileLoop(scope_, inputs == nullptr ? inputs_ : *inputs, cond, body,
                                     "test_loop", &outputs_));
  }

  void CreateBackprop() {
    TF_ASSERT_OK(AddSymbolicGradients(scope_, outputs_, inputs_, &grad_outputs_));
    ASSERT_EQ(grad_outputs_.size(), inputs_.size());
  }

  // Feeds `values` (one scalar per input) and expects the scalar gradients `want`.
  template <typename T>
  void Run(const std::vector<T>& values, const std::vector<T>& want) {
    ClientSession session(scope_);
    ClientSession::FeedType feeds;
    for (size_t i = 0; i < inputs_.size(); ++i) feeds.emplace(inputs_[i], values[i]);
    std::vector<Tensor> out;
    TF_ASSERT_OK(session.Run(feeds, grad_outputs_, &out));
    ASSERT_EQ(out.size(), want.size());
    for (size_t i = 0; i < out.size(); ++i) {
      test::ExpectTensorEqual<T>(out[i], test::AsTensor<T>({want[i]}, {}));
    }
  }

  Scope scope_;
  std::vector<Output> inputs_;
  std::vector<Output> outputs_;
  std::vector<Output> grad_outputs_;
};

TEST_F(WhileGradientsTest, Basic) {
  // while (i < 10) i += 1
  Init(1);
  CreateLoop(
      [](const Scope& s, const std::vector<Output>& in, Output* out) {
        *out = ops::Less(s, in[0], 10);
        return s.status();
      },
      [](const Scope& s, const std::vector<Output>& in, std::vector<Output>* out) {
        out->push_back(ops::AddN(s, {in[0], 1}));
        return s.status();
      });
  CreateBackprop();
  Run<int>({1}, {1});
  Run<int>({11}, {1});
}

TEST_F(WhileGradientsTest, MultipleLoopVars) {
  // while (i < 10) i += j; j += 1; k = k
  Init(3);
  CreateLoop(
      [](const Scope& s, const std::vector<Output>& in, Output* out) {
        *out = ops::Less(s, in[0], 10);
        return s.status();
      },
      [](const Scope& s, const std::vector<Output>& in, std::vector<Output>* out) {
        out->push_back(ops::AddN(s, {in[0], in[1]}));
        out->push_back(ops::AddN(s, {in[1], 1}));
        out->push_back(in[2]);
        return s.status();
      });
  CreateBackprop();
  // d(i + j + k)/dj is 5 from (0, 1, 2): four iterations each add j to i, then j itself.
  Run<int>({0, 1, 2}, {1, 5, 1});
  Run<int>({1, 1, 0}, {1, 5, 1});
  Run<int>({0, 0, 0}, {1, 6, 1});
}

TEST_F(WhileGradientsTest, Chaining) {
  Init(2, DT_DOUBLE);
  // Inputs doubled before the loop, its first output negated after it.
  std::vector<Output> loop_inputs = {ops::Multiply(scope_, inputs_[0], 2.0),
                                     ops::Multiply(scope_, inputs_[1], 2.0)};
  // while (i > 0 && j > 0) i -= 1
  CreateLoop(
      [](const Scope& s, const std::vector<Output>& in, Output* out) {
        *out = ops::LogicalAnd(s, ops::Greater(s, in[0], 0.0), ops::Greater(s, in[1], 0.0));
        return s.status();
      },
      [](const Scope& s, const std::vector<Output>& in, std::vector<Output>* out) {
        out->push_back(ops::AddN(s, {in[0], -1.0}));
        out->push_back(in[1]);
        return s.status();
      },
      &loop_inputs);
  outputs_[0] = ops::Neg(scope_, outputs_[0]);
  CreateBackprop();
  Run<double>({1.0, 1.0}, {-2.0, 2.0});
  Run<double>({0.0, 0.0}, {-2.0, 2.0});
}

}  // namespace while_gradients_test
}  // namespace
}  // namespace rill
