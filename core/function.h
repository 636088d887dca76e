// Functions: graphs that nodes call (TensorFlow's functional If and While). A Function is
// a graph of its own with argument nodes (Placeholders) and return values; a node holds
// it in an attribute (AttrKind::kFunc). A Function never changes once made, so plans,
// graph copies and several nodes share it. Its graph holds no state: variables live in
// the caller's graph and come in as arguments.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "rill/core/graph.h"

namespace rill {

class Function {
 public:
  // Checks that every arg is a distinct Placeholder of `graph`, every ret an output of
  // one of its nodes, that every Placeholder the rets depend on is an arg, and that the
  // graph reads no variable. InvalidArgument names the function and the node.
  static absl::StatusOr<FunctionRef> Create(std::string name, std::shared_ptr<const Graph> graph,
                                            std::vector<Node*> args, std::vector<NodeOut> rets);

  const std::string& name() const { return name_; }
  const Graph& graph() const { return *graph_; }
  const std::vector<Node*>& args() const { return args_; }
  const std::vector<NodeOut>& rets() const { return rets_; }
  int num_args() const { return static_cast<int>(args_.size()); }
  int num_rets() const { return static_cast<int>(rets_.size()); }
  DataType arg_type(int i) const { return args_[i]->output_type(0); }
  const PartialTensorShape& arg_shape(int i) const { return args_[i]->output_shape(0); }
  DataType ret_type(int i) const { return rets_[i].node->output_type(rets_[i].index); }
  const PartialTensorShape& ret_shape(int i) const {
    return rets_[i].node->output_shape(rets_[i].index);
  }
  std::vector<DataType> arg_types() const;
  std::vector<DataType> ret_types() const;

 private:
  Function() = default;
  std::string name_;
  std::shared_ptr<const Graph> graph_;
  std::vector<Node*> args_;
  std::vector<NodeOut> rets_;
};

// "function 'name'", for messages.
std::string FunctionDebugName(const Function& f);

// A function planned for one Session's devices, ready to run (runtime/function_runtime.h
// makes them). Run may be called from several threads at once.
class FunctionCall {
 public:
  virtual ~FunctionCall() = default;
  // `args`: host tensors of the function's arg dtypes and shapes; *rets: host tensors.
  virtual absl::Status Run(const std::vector<Tensor>& args, std::vector<Tensor>* rets) const = 0;
};

// What kernels that call functions (If, While) are given (KernelOptions::functions): the
// Session's planner of functions, which places, optimizes and plans each function once.
class FunctionRuntime {
 public:
  virtual ~FunctionRuntime() = default;
  virtual absl::StatusOr<std::shared_ptr<const FunctionCall>> Instantiate(const FunctionRef& f) = 0;
};

}  // namespace rill
