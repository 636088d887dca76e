// The cases of TensorFlow's tensorflow/cc/ops/while_loop_test.cc, rewritten against rill
// (loops, inputs, expected values and error codes are TensorFlow's; the code is ours).
// rill: BuildWhileLoop makes one functional While node, not TensorFlow's Enter/Merge/
// Switch/Exit frame, so Basic checks that each output comes from the While named after the
// frame instead of Exit nodes and a WhileContext; and the error messages are rill's (each
// names what is wrong, checked by substring) where TensorFlow's are its own wording.
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace while_loop_test {

class WhileLoopTest : public ::testing::Test {
 protected:
  WhileLoopTest() : scope_(Scope::NewRootScope()) {}

  void Init(int num_inputs, DataType dtype = DT_INT32) {
    for (int i = 0; i < num_inputs; ++i) inputs_.push_back(ops::Placeholder(scope_, dtype));
  }

  void CreateLoop(const ops::CondGraphBuilderFn& cond, const ops::BodyGraphBuilderFn& body,
                  absl::StatusCode error_code = absl::StatusCode::kOk,
                  const std::string& error_part = "") {
    Status s = ops::BuildWhileLoop(scope_, inputs_, cond, body, kFrameName, &outputs_);
    EXPECT_EQ(s.code(), error_code) << s;
    EXPECT_NE(std::string(s.message()).find(error_part), std::string::npos) << s;
  }

  template <typename T>
  void Run(const std::vector<Input::Initializer>& input_values,
           const std::vector<T>& expected_output_values) {
    ClientSession session(scope_);
    ASSERT_EQ(input_values.size(), inputs_.size());
    ClientSession::FeedType feeds;
    for (size_t i = 0; i < inputs_.size(); ++i) feeds.emplace(inputs_[i], input_values[i]);
    std::vector<Tensor> out_tensors;
    TF_ASSERT_OK(session.Run(feeds, outputs_, &out_tensors));
    ASSERT_EQ(out_tensors.size(), outputs_.size());
    ASSERT_EQ(expected_output_values.size(), out_tensors.size());
    for (size_t i = 0; i < out_tensors.size(); ++i) {
      test::ExpectTensorEqual<T>(out_tensors[i],
                                 test::AsTensor<T>({expected_output_values[i]}, {}));
    }
  }

  Scope scope_;
  std::vector<Output> inputs_;
  std::vector<Output> outputs_;

  static const char* const kFrameName;
};

const char* const WhileLoopTest::kFrameName = "test_loop";

Status LessThanTenCond(const Scope& s, const std::vector<Output>& inputs, Output* output) {
  *output = ops::Less(s, inputs[0], 10);
  return s.status();
}

Status AddOneBody(const Scope& s, const std::vector<Output>& inputs, std::vector<Output>* outputs) {
  outputs->push_back(ops::Add(s, inputs[0], 1));
  return s.status();
}

TEST_F(WhileLoopTest, Basic) {
  // while (i < 10) i += 1
  Init(1);
  CreateLoop(LessThanTenCond, AddOneBody);
  for (const Output& out : outputs_) {
    ASSERT_NE(out.node(), nullptr);
    EXPECT_EQ(out.node()->type_string(), "While");
    EXPECT_EQ(out.node()->name(), kFrameName);
  }
  Run<int>({1}, {10});
  Run<int>({11}, {11});
}

TEST_F(WhileLoopTest, WrongCondOutputType) {
  Init(1);
  CreateLoop(
      [](const Scope& s, const std::vector<Output>& /*inputs*/, Output* output) {
        *output = ops::Placeholder(s, DT_FLOAT);
        return s.status();
      },
      AddOneBody, absl::StatusCode::kInvalidArgument, "'cond' must return a bool, got float");
}

TEST_F(WhileLoopTest, NullCondOutputNode) {
  Init(1);
  CreateLoop(
      [](const Scope& s, const std::vector<Output>& /*inputs*/, Output* output) {
        *output = {nullptr, 0};
        return s.status();
      },
      AddOneBody, absl::StatusCode::kInvalidArgument, "null Output");
}

TEST_F(WhileLoopTest, InvalidCondOutputIndex) {
  Init(1);
  CreateLoop(
      [](const Scope& s, const std::vector<Output>& inputs, Output* output) {
        auto less = ops::Less(s, inputs[0], 10);
        *output = {less.node(), 100};
        return s.status();
      },
      AddOneBody, absl::StatusCode::kOutOfRange, "output 100 of");
}

TEST_F(WhileLoopTest, UnsetCondOutput) {
  Init(1);
  CreateLoop([](const Scope& s, const std::vector<Output>& /*inputs*/,
                Output* /*output*/) { return s.status(); },
             AddOneBody, absl::StatusCode::kInvalidArgument, "null Output");
}

TEST_F(WhileLoopTest, NullBodyOutputNode) {
  Init(1);
  CreateLoop(
      LessThanTenCond,
      [](const Scope& s, const std::vector<Output>& /*inputs*/, std::vector<Output>* outputs) {
        outputs->push_back({nullptr, 0});
        return s.status();
      },
      absl::StatusCode::kInvalidArgument, "null Output");
}

TEST_F(WhileLoopTest, InvalidBodyOutputIndex) {
  Init(1);
  CreateLoop(
      LessThanTenCond,
      [](const Scope& s, const std::vector<Output>& inputs, std::vector<Output>* outputs) {
        auto add = ops::Add(s, inputs[0], 1);
        outputs->emplace_back(add.node(), 100);
        return s.status();
      },
      absl::StatusCode::kOutOfRange, "output 100 of");
}

TEST_F(WhileLoopTest, UnsetBodyOutputs) {
  Init(1);
  CreateLoop(
      LessThanTenCond,
      [](const Scope& s, const std::vector<Output>& /*inputs*/, std::vector<Output>* /*outputs*/) {
        return s.status();
      },
      absl::StatusCode::kInvalidArgument, "returns 0 values for 1 loop variable");
}

}  // namespace while_loop_test
}  // namespace
}  // namespace rill
