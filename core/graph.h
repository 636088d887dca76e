// The dataflow graph: nodes (an op, attributes, data inputs, control inputs, a requested
// device) appended one at a time. Inputs must already exist, so a graph is acyclic by
// construction; nodes never change once added, so plans built from them stay valid while
// the graph grows.
#pragma once

#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rill/core/attr_value.h"
#include "rill/core/op_registry.h"

namespace rill {

class Node;

struct NodeOut {
  Node* node = nullptr;
  int index = 0;
};

// What a caller asks for; Graph::AddNode checks it and infers the rest.
struct NodeSpec {
  std::string name;
  std::string op;
  std::vector<NodeOut> inputs;
  std::vector<Node*> control_inputs;
  AttrMap attrs;
  std::string device;         // requested, possibly partial ("/GPU:*")
  std::string colocate_with;  // name of a node to share a device with
};

class Graph;

class Node {
 public:
  int id() const { return id_; }
  // The graph that owns this node: a Session refuses nodes of any other graph.
  const Graph* graph() const { return graph_; }
  const std::string& name() const { return name_; }
  const std::string& type_string() const { return op_def_->name; }
  const OpDef& op_def() const { return *op_def_; }
  const AttrMap& attrs() const { return attrs_; }
  template <typename T>
  const T& attr(const std::string& name) const {
    return std::get<T>(attrs_.at(name));
  }

  int num_inputs() const { return static_cast<int>(inputs_.size()); }
  NodeOut input(int i) const { return inputs_[i]; }
  DataType input_type(int i) const;
  bool input_is_ref(int i) const { return input_is_ref_[i]; }
  const std::vector<Node*>& control_inputs() const { return control_inputs_; }

  int num_outputs() const { return static_cast<int>(output_types_.size()); }
  bool has_output(int i) const { return i >= 0 && i < num_outputs(); }
  DataType output_type(int i) const { return output_types_[i]; }
  const PartialTensorShape& output_shape(int i) const { return output_shapes_[i]; }

  const std::string& requested_device() const { return device_; }
  const std::string& colocate_with() const { return colocate_with_; }

  bool IsConstant() const { return type_string() == "Const"; }
  bool IsPlaceholder() const { return type_string() == "Placeholder"; }
  bool IsVariable() const { return type_string() == "Variable"; }
  // The value of a Const node, else nullptr.
  const Tensor* constant_value() const;

  // "node 'name' (Op)", used to start error messages.
  std::string DebugName() const;

 private:
  friend class Graph;
  int id_ = -1;
  const Graph* graph_ = nullptr;
  std::string name_;
  const OpDef* op_def_ = nullptr;
  AttrMap attrs_;
  std::vector<NodeOut> inputs_;
  std::vector<bool> input_is_ref_;
  std::vector<Node*> control_inputs_;
  std::vector<DataType> output_types_;
  std::vector<PartialTensorShape> output_shapes_;
  std::string device_;
  std::string colocate_with_;
};

class Graph {
 public:
  Graph() = default;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  // Checks the op, attrs, input count and dtypes, the device string and the name, runs
  // the shape function, and appends. Errors name the node and op.
  absl::StatusOr<Node*> AddNode(NodeSpec spec);

  Node* FindNode(absl::string_view name) const;  // nullptr when absent
  bool HasNode(absl::string_view name) const { return FindNode(name) != nullptr; }
  int num_nodes() const;
  Node* node(int id) const;

  // Variable initializers, for GlobalVariablesInitializer.
  void AddInitializer(Node* assign);
  std::vector<Node*> initializers() const;

 private:
  absl::Status ResolveTypes(const OpDef& def, NodeSpec& spec, std::vector<bool>* refs,
                            std::vector<DataType>* outputs) const;

  mutable std::mutex mu_;
  std::deque<std::unique_ptr<Node>> nodes_;
  absl::flat_hash_map<std::string, Node*> by_name_;
  std::vector<Node*> initializers_;
};

}  // namespace rill
