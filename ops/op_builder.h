// Internal: turns a Scope, an op type, inputs and attrs into a graph node, recording any
// error in the scope. Every op wrapper is a few lines on top of this.
#pragma once

#include <string>
#include <vector>

#include "rill/ops/scope.h"

namespace rill::ops {

// Base of the op wrapper classes: converts to Output, Input (through Input's constructor)
// and Operation as TensorFlow's generated wrappers do. `output` is the (first) output; it
// is empty when building failed.
class OpWrapper {
 public:
  operator Output() const { return output; }        // NOLINT
  operator Operation() const { return operation; }  // NOLINT
  Node* node() const { return output.node(); }

  Operation operation;
  Output output;
};
}  // namespace rill::ops

namespace rill {
inline Input::Input(const ops::OpWrapper& op) : output_(op.output) {}
}  // namespace rill

namespace rill::ops {

namespace internal {

class NodeBuilder {
 public:
  // `default_name` names the node when the scope gives none (the op type by default).
  NodeBuilder(const Scope& scope, std::string op, std::string default_name = "");
  NodeBuilder& Input(const ::rill::Input& in);
  NodeBuilder& Inputs(const InputList& in);
  NodeBuilder& Attr(const std::string& name, AttrValue v);
  // Adds the node; on error records it in the scope and returns an empty Operation.
  Operation Finalize();
  // Finalize and fill a wrapper's operation and output.
  void Finalize(OpWrapper* w);

 private:
  const Scope& scope_;
  NodeSpec spec_;
  std::string default_name_;
  bool failed_ = false;
};

}  // namespace internal
}  // namespace rill::ops

namespace rill {
// TensorFlow's CreateOutputWithScope: a node of op `op_name` on `inputs` (type attrs from
// their dtypes, other attrs at their defaults), named by `scope`; its output 0 goes to
// *output. The scope's status on failure.
absl::Status CreateOutputWithScope(std::string op_name, absl::Span<const Input> inputs,
                                   const Scope& scope, Output* output);
}  // namespace rill

// Constructor bodies for one-input and two-input op wrappers (declared with
// RILL_DECLARE_UNARY_OP / RILL_DECLARE_BINARY_OP in math_ops.h).
#define RILL_DEFINE_UNARY_OP(Name)                                            \
  Name::Name(const Scope& scope, Input x) {                                   \
    ::rill::ops::internal::NodeBuilder(scope, #Name).Input(x).Finalize(this); \
  }
#define RILL_DEFINE_BINARY_OP(Name)                                                    \
  Name::Name(const Scope& scope, Input x, Input y) {                                   \
    ::rill::ops::internal::NodeBuilder(scope, #Name).Input(x).Input(y).Finalize(this); \
  }
