// TensorFlow's OpsTestBase (core/kernels/ops_testutil.h) for users' GoogleTest tests of
// one op's kernel, their own ops' included: describe the node, add its inputs, run it,
// read its outputs. A TensorFlow kernel test ports by renaming.
//   class MyOpTest : public OpsTestBase {};
//   TEST_F(MyOpTest, Doubles) {
//     ASSERT_TRUE(NodeDefBuilder("op", "MyOp").Input(FakeInput(DT_FLOAT))
//                     .Finalize(node_def()).ok());
//     ASSERT_TRUE(InitOp().ok());
//     AddInputFromArray<float>(TensorShape({2}), {1, 2});
//     ASSERT_TRUE(RunOpKernel().ok());
//     test::ExpectTensorEqual<float>(*GetOutput(0), test::AsTensor<float>({2, 4}));
//   }
// The node runs in a Session of its own over placeholders (variables for ref inputs), on
// the device SetDevice names and nowhere else (no soft placement), with the graph
// optimizer and the memory plan off: the kernel runs as written, each value in memory of
// its own (so a sanitizer sees an overrun). InitOp builds the node and its kernel, so
// errors of attributes come from it; errors of inputs come from RunOpKernel. A ref input
// is a variable holding the value added: after the run, GetInput shows what the kernel
// left in it, as TensorFlow's do.
#pragma once

#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "gtest/gtest.h"
#include "rill/core/allocator.h"
#include "rill/core/device_name.h"
#include "rill/ops/scope.h"
#include "rill/runtime/session.h"
#include "rill/runtime/testing/node_def_builder.h"

namespace rill {

// An input as a kernel sees it (TensorFlow's TensorValue): `tensor` points at the value,
// which for a ref input is what the kernel left in the variable.
struct TensorValue {
  Tensor* tensor = nullptr;
  bool is_ref = false;
  Tensor* operator->() const { return tensor; }
  Tensor& operator*() const { return *tensor; }
};

class OpsTestBase : public ::testing::Test {
 public:
  NodeDef* node_def() { return &node_def_; }
  void set_node_def(const NodeDef& def) { node_def_ = def; }
  // DEVICE_CPU (the default) or DEVICE_GPU; a device the NodeDef names wins.
  void SetDevice(const std::string& device_type) { device_type_ = device_type; }
  const std::string& device_type() const { return device_type_; }
  // Where tests make their expected tensors (Tensor(allocator(), dtype, shape)).
  Allocator* allocator() { return cpu_allocator(); }

  // Builds the node and its kernel. Errors: the node's (attributes, dtypes, a shape
  // function that already refuses) and the kernel's (none on the device, or its
  // constructor's). Inputs added before stay, as TensorFlow's do: clear inputs_ to start
  // over.
  absl::Status InitOp() {
    session_.reset();
    scope_ = std::make_unique<Scope>(Scope::NewRootScope());
    RILL_RETURN_IF_ERROR(BuildGraph());
    SessionOptions options;
    options.optimize_graph = false;
    options.plan_memory = false;
    options.allow_soft_placement = false;
    RILL_ASSIGN_OR_RETURN(session_, Session::Create(*scope_, options));
    return MakeCallables();
  }

  // TensorFlow's InitOp at a GraphDef version, for ops it retired at later versions
  // (BatchNormWithGlobalNormalization at 9): rill keeps no versions and retires no op.
  absl::Status InitOpWithGraphVersion(int /*graph_def_version*/) { return InitOp(); }

  template <typename T>
  void AddInput(const TensorShape& shape, std::function<T(int)> input_mapping) {
    Tensor t(allocator(), DataTypeToEnum<T>::value, shape);
    for (int64_t i = 0; i < t.NumElements(); ++i)
      t.flat<T>()(i) = input_mapping(static_cast<int>(i));
    inputs_.push_back(std::move(t));
  }
  template <typename T>
  void AddInputFromArray(const TensorShape& shape, absl::Span<const T> data) {
    if (shape.num_elements() != static_cast<int64_t>(data.size())) {
      ADD_FAILURE() << "AddInputFromArray: " << data.size() << " values for shape "
                    << shape.DebugString();
      return;
    }
    AddInput<T>(shape, [&](int i) { return data[static_cast<size_t>(i)]; });
  }
  template <typename T>
  void AddInputFromArray(const TensorShape& shape, std::initializer_list<T> data) {
    AddInputFromArray<T>(shape, absl::Span<const T>(data.begin(), data.size()));
  }
  // Values of another type, each converted (TensorFlow's for Eigen::half and the like).
  template <typename T, typename SrcType>
  void AddInputFromList(const TensorShape& shape, std::initializer_list<SrcType> data) {
    std::vector<T> values;
    for (const SrcType& v : data) values.push_back(static_cast<T>(v));
    AddInputFromArray<T>(shape, absl::Span<const T>(values));
  }

  // Runs the node once on the inputs added, in order (one per input of the NodeDef).
  absl::Status RunOpKernel() {
    if (session_ == nullptr) {
      return absl::FailedPreconditionError("RunOpKernel before a successful InitOp");
    }
    RILL_RETURN_IF_ERROR(CheckInputs());
    std::vector<Tensor> fed, refs, ignored;
    for (int i : feeds_) fed.push_back(inputs_[static_cast<size_t>(i)]);
    for (int i : refs_) refs.push_back(inputs_[static_cast<size_t>(i)]);
    if (!refs_.empty()) RILL_RETURN_IF_ERROR(session_->RunCallable(init_, refs, &ignored));
    outputs_.clear();
    dead_.clear();
    absl::Status st = session_->RunCallable(run_, fed, &outputs_);
    if (IsDeadFetch(st)) st = RunEachOutput(fed);  // a Switch: its untaken output is dead
    RILL_RETURN_IF_ERROR(st);
    if (refs_.empty()) return absl::OkStatus();
    std::vector<Tensor> after;
    RILL_RETURN_IF_ERROR(session_->RunCallable(read_, {}, &after));
    for (size_t j = 0; j < refs_.size(); ++j) inputs_[static_cast<size_t>(refs_[j])] = after[j];
    return absl::OkStatus();
  }

  const Tensor& GetInput(int input_index) const {
    if (input_index < 0 || input_index >= static_cast<int>(inputs_.size())) {
      ADD_FAILURE() << "GetInput(" << input_index << "): " << inputs_.size() << " inputs";
      return empty_;
    }
    return inputs_[static_cast<size_t>(input_index)];
  }
  TensorValue mutable_input(int input_index) {
    if (input_index < 0 || input_index >= static_cast<int>(inputs_.size())) {
      ADD_FAILURE() << "mutable_input(" << input_index << "): " << inputs_.size() << " inputs";
      empty_ = Tensor();
      return {&empty_, false};
    }
    const auto i = static_cast<size_t>(input_index);
    const bool ref = i < node_def_.input_is_ref().size() && node_def_.input_is_ref()[i];
    return {&inputs_[i], ref};
  }
  // Output i of the last run (a failed test and an empty tensor when there is none);
  // nullptr for an output that was dead (a Switch's untaken one), as TensorFlow's.
  Tensor* GetOutput(int output_index) {
    if (output_index >= 0 && static_cast<size_t>(output_index) < outputs_.size() &&
        static_cast<size_t>(output_index) < dead_.size() && dead_[output_index]) {
      return nullptr;
    }
    if (output_index < 0 || output_index >= static_cast<int>(outputs_.size())) {
      ADD_FAILURE() << "GetOutput(" << output_index << "): the last run made " << outputs_.size()
                    << " outputs";
      empty_ = Tensor();
      return &empty_;
    }
    return &outputs_[static_cast<size_t>(output_index)];
  }
  const std::vector<DataType>& output_types() const { return output_types_; }

 protected:
  NodeDef node_def_;
  std::vector<Tensor> inputs_;  // as added; a test may clear them between runs

 private:
  std::string NodeDevice() const {
    if (!node_def_.device().empty()) return node_def_.device();
    return absl::StrCat("/", device_type_, ":0");
  }

  absl::StatusOr<Node*> Add(NodeSpec spec) { return scope_->graph()->AddNode(std::move(spec)); }

  // A variable of unknown shape for a ref input, on the node's device, and the Assign
  // (kept in assigns_) that gives it the value fed to `ph` before each run.
  absl::StatusOr<Node*> AddVariable(const std::string& at, DataType dt, Node* ph) {
    RILL_ASSIGN_OR_RETURN(Node * var, Add({at + "/var",
                                           "Variable",
                                           {},
                                           {},
                                           {{"dtype", dt}, {"shape", PartialTensorShape()}},
                                           NodeDevice(),
                                           ""}));
    RILL_ASSIGN_OR_RETURN(Node * assign, Add({at + "/assign",
                                              "Assign",
                                              {{var, 0}, {ph, 0}},
                                              {},
                                              {{"validate_shape", false}},
                                              NodeDevice(),
                                              ""}));
    assigns_.push_back(Operation(assign));
    return var;
  }

  // Placeholders (and variables for ref inputs) named "_ops_test/...", then the node.
  absl::Status BuildGraph() {
    feeds_.clear(), refs_.clear(), assigns_.clear();
    placeholders_.clear(), ref_placeholders_.clear(), variables_.clear();
    NodeSpec node{node_def_.name(), node_def_.op(), {}, {}, node_def_.attr(), NodeDevice(), ""};
    for (size_t i = 0; i < node_def_.input_types().size(); ++i) {
      const DataType dt = node_def_.input_types()[i];
      const std::string at = absl::StrCat("_ops_test/input_", i);
      RILL_ASSIGN_OR_RETURN(Node * ph,
                            Add({at, "Placeholder", {}, {}, {{"dtype", dt}}, "/CPU:0", ""}));
      if (!node_def_.input_is_ref()[i]) {
        feeds_.push_back(static_cast<int>(i));
        placeholders_.push_back(Output(ph));
        node.inputs.push_back({ph, 0});
        continue;
      }
      RILL_ASSIGN_OR_RETURN(Node * var, AddVariable(at, dt, ph));
      refs_.push_back(static_cast<int>(i));
      ref_placeholders_.push_back(Output(ph));
      variables_.push_back(Output(var));
      node.inputs.push_back({var, 0});
    }
    RILL_ASSIGN_OR_RETURN(node_, Add(std::move(node)));
    output_types_.clear();
    for (int i = 0; i < node_->num_outputs(); ++i) output_types_.push_back(node_->output_type(i));
    return absl::OkStatus();
  }

  absl::Status MakeCallables() {
    CallableOptions run{placeholders_, {}, {}};
    for (int i = 0; i < node_->num_outputs(); ++i) run.fetch.push_back(Output(node_, i));
    if (run.fetch.empty()) run.target.push_back(Operation(node_));
    RILL_RETURN_IF_ERROR(session_->MakeCallable(run, &run_));
    if (refs_.empty()) return absl::OkStatus();
    RILL_RETURN_IF_ERROR(session_->MakeCallable({ref_placeholders_, {}, assigns_}, &init_));
    return session_->MakeCallable({{}, variables_, {}}, &read_);
  }

  static bool IsDeadFetch(const absl::Status& st) {
    return st.code() == absl::StatusCode::kInvalidArgument &&
           absl::StrContains(st.message(), "is dead in this run");
  }

  // Fetches the outputs one at a time, noting those that are dead.
  absl::Status RunEachOutput(const std::vector<Tensor>& fed) {
    const int n = node_->num_outputs();
    if (single_.empty()) {
      single_.resize(static_cast<size_t>(n));
      for (int i = 0; i < n; ++i) {
        RILL_RETURN_IF_ERROR(
            session_->MakeCallable({placeholders_, {Output(node_, i)}, {}}, &single_[i]));
      }
    }
    outputs_.assign(static_cast<size_t>(n), Tensor());
    dead_.assign(static_cast<size_t>(n), false);
    for (int i = 0; i < n; ++i) {
      std::vector<Tensor> one;
      absl::Status st = session_->RunCallable(single_[i], fed, &one);
      if (IsDeadFetch(st)) {
        dead_[i] = true;
        continue;
      }
      RILL_RETURN_IF_ERROR(st);
      outputs_[i] = std::move(one[0]);
    }
    return absl::OkStatus();
  }

  absl::Status CheckInputs() const {
    const std::vector<DataType>& want = node_def_.input_types();
    if (inputs_.size() != want.size()) {
      return absl::InvalidArgumentError(absl::StrCat("node '", node_def_.name(), "' (",
                                                     node_def_.op(), ") takes ", want.size(),
                                                     " inputs; ", inputs_.size(), " added"));
    }
    for (size_t i = 0; i < want.size(); ++i) {
      if (inputs_[i].dtype() != want[i]) {
        return absl::InvalidArgumentError(absl::StrCat(
            "node '", node_def_.name(), "' (", node_def_.op(), "): input ", i, " was added as ",
            DataTypeString(inputs_[i].dtype()), "; its FakeInput is ", DataTypeString(want[i])));
      }
    }
    return absl::OkStatus();
  }

  std::string device_type_ = DEVICE_CPU;
  std::unique_ptr<Scope> scope_;
  std::unique_ptr<Session> session_;
  Node* node_ = nullptr;
  std::vector<int> feeds_, refs_;  // input indices fed as placeholders, held in variables
  std::vector<Output> placeholders_, ref_placeholders_, variables_;
  std::vector<Operation> assigns_;
  Session::CallableHandle run_ = 0, init_ = 0, read_ = 0;
  std::vector<Tensor> outputs_;
  std::vector<bool> dead_;  // per output of the last run that fetched them one at a time
  std::vector<Session::CallableHandle> single_;
  std::vector<DataType> output_types_;
  Tensor empty_;
};

}  // namespace rill
