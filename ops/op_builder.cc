#include "rill/ops/op_builder.h"

#include "rill/ops/array_ops.h"

namespace rill::ops::internal {

NodeBuilder::NodeBuilder(const Scope& scope, std::string op, std::string default_name)
    : scope_(scope), default_name_(std::move(default_name)) {
  spec_.op = std::move(op);
  if (default_name_.empty()) default_name_ = spec_.op;
  failed_ = !scope.ok();
}

NodeBuilder& NodeBuilder::Input(const ::rill::Input& in) {
  if (failed_) return *this;
  if (in.is_constant()) {
    if (!in.status().ok()) {
      scope_.UpdateStatus(in.status());
      failed_ = true;
      return *this;
    }
    // In a sub-scope of no name: the op's own name is not taken, nor a composite op's
    // single use (Const(cop.last, ...) would name the composite after the constant).
    Output c = Const(scope_.NewSubScope("").WithNoControlDependencies(), in.tensor());
    if (c.node() == nullptr) {
      failed_ = true;
      return *this;
    }
    spec_.inputs.push_back({c.node(), 0});
    return *this;
  }
  if (in.node() == nullptr) {
    // An earlier op failed and recorded its error already; or a default-constructed Output.
    if (scope_.ok()) {
      scope_.UpdateStatus(errors::InvalidArgument(
          "an input of a new '", spec_.op, "' node is an empty Output (not built by an op)"));
    }
    failed_ = true;
    return *this;
  }
  spec_.inputs.push_back({in.node(), in.index()});
  return *this;
}

NodeBuilder& NodeBuilder::Inputs(const InputList& list) {
  for (const ::rill::Input& in : list.inputs()) Input(in);
  return *this;
}

NodeBuilder& NodeBuilder::Attr(const std::string& name, AttrValue v) {
  spec_.attrs[name] = std::move(v);
  return *this;
}

Operation NodeBuilder::Finalize() {
  if (failed_ || !scope_.ok()) return Operation();
  spec_.name = scope_.GetUniqueNameForOp(default_name_);
  spec_.device = scope_.device();
  spec_.colocate_with = scope_.colocate_with();
  for (const Operation& op : scope_.control_deps()) {
    if (op.node() != nullptr) spec_.control_inputs.push_back(op.node());
  }
  absl::StatusOr<Node*> n = scope_.graph()->AddNode(std::move(spec_));
  if (!n.ok()) {
    scope_.UpdateStatus(n.status());
    return Operation();
  }
  return Operation(*n);
}

void NodeBuilder::Finalize(OpWrapper* w) {
  w->operation = Finalize();
  w->output = w->operation.node() && w->operation.num_outputs() > 0 ? Output(w->operation.node(), 0)
                                                                    : Output();
}

}  // namespace rill::ops::internal

namespace rill {

absl::Status CreateOutputWithScope(std::string op_name, absl::Span<const Input> inputs,
                                   const Scope& scope, Output* output) {
  ops::internal::NodeBuilder builder(scope, std::move(op_name));
  for (const Input& in : inputs) builder.Input(in);
  const Operation op = builder.Finalize();
  RILL_RETURN_IF_ERROR(scope.status());
  if (op.num_outputs() == 0) {
    return errors::InvalidArgument("op ", op.node()->type_string(), " (node '", op.name(),
                                   "') has no output 0");
  }
  *output = Output(op.node(), 0);
  return absl::OkStatus();
}

}  // namespace rill
