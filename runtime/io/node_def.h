// TensorFlow's NodeDef: one node described by name, op, inputs, requested device and
// attributes, before any graph holds it. A GraphDef's nodes are NodeDefs (runtime/io/
// graph_def.h), and so is what NodeDefBuilder makes (runtime/testing/node_def_builder.h).
//   NodeDef* n = def.add_node();
//   n->set_name("y");
//   n->set_op("Neg");
//   n->add_input("x");          // "x" is output 0 of node x, "x:1" output 1, "^x" a control edge
//   (*n->mutable_attr())["T"] = DT_FLOAT;
// rill's attributes are AttrValues (core/attr_value.h), not TensorFlow's proto: an
// attribute is set by assigning the value itself.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rill/core/attr_value.h"

namespace rill {

class NodeDef {
 public:
  const std::string& name() const { return name_; }
  const std::string& op() const { return op_; }
  const std::string& device() const { return device_; }
  void set_name(std::string name) { name_ = std::move(name); }
  void set_op(std::string op) { op_ = std::move(op); }
  void set_device(std::string device) { device_ = std::move(device); }
  void clear_device() { device_.clear(); }

  // Inputs by name: "node" or "node:index" for data, "^node" for control, data first.
  const std::vector<std::string>& input() const { return inputs_; }
  const std::string& input(int i) const { return inputs_[static_cast<size_t>(i)]; }
  int input_size() const { return static_cast<int>(inputs_.size()); }
  void add_input(std::string name) { inputs_.push_back(std::move(name)); }
  std::string* mutable_input(int i) { return &inputs_[static_cast<size_t>(i)]; }
  void clear_input() {
    inputs_.clear();
    input_types_.clear();
    input_is_ref_.clear();
  }

  const AttrMap& attr() const { return attr_; }
  AttrMap* mutable_attr() { return &attr_; }

  // What NodeDefBuilder knew of each input: its dtype, and whether it is a variable (a ref
  // argument), as OpsTestBase feeds them. Empty for a node read from a graph.
  const std::vector<DataType>& input_types() const { return input_types_; }
  const std::vector<bool>& input_is_ref() const { return input_is_ref_; }
  void add_input(std::string name, DataType dtype, bool is_ref) {
    inputs_.push_back(std::move(name));
    input_types_.push_back(dtype);
    input_is_ref_.push_back(is_ref);
  }

  // Fields of rill's graph text that TensorFlow's NodeDef has no place for: the node to
  // colocate with, the device a Session assigned, and function attributes by the name of
  // the graph's function ("key" -> "function name"). They are written back as they were.
  const std::string& colocate_with() const { return colocate_with_; }
  void set_colocate_with(std::string node) { colocate_with_ = std::move(node); }
  const std::string& assigned_device() const { return assigned_device_; }
  void set_assigned_device(std::string device) { assigned_device_ = std::move(device); }
  const std::vector<std::pair<std::string, std::string>>& function_attrs() const {
    return function_attrs_;
  }
  void add_function_attr(std::string key, std::string function) {
    function_attrs_.emplace_back(std::move(key), std::move(function));
  }

 private:
  std::string name_, op_, device_;
  std::vector<std::string> inputs_;
  AttrMap attr_;
  std::vector<DataType> input_types_;
  std::vector<bool> input_is_ref_;
  std::string colocate_with_, assigned_device_;
  std::vector<std::pair<std::string, std::string>> function_attrs_;
};

}  // namespace rill
