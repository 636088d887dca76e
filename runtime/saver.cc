#include "rill/runtime/saver.h"

#include "absl/container/flat_hash_map.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/state_ops.h"
#include "rill/runtime/checkpoint.h"

namespace rill {

Saver::Saver(const Scope& scope, std::vector<Output> variables) : variables_(std::move(variables)) {
  if (variables_.empty()) {
    Graph* g = scope.graph();
    for (int i = 0; i < g->num_nodes(); ++i) {
      if (g->node(i)->IsVariable()) variables_.emplace_back(g->node(i), 0);
    }
  }
  Scope s = scope.NewSubScope("save").WithNoControlDependencies().ClearColocation();
  for (const Output& v : variables_) {
    if (v.node() == nullptr || !v.node()->IsVariable()) {
      status_ = errors::InvalidArgument("Saver: '", v.name(), "' is not a variable");
      return;
    }
    auto value = ops::Placeholder(s, v.type(), ops::Placeholder::Shape(v.shape()));
    auto assign = ops::Assign(s, v, value);
    if (!s.ok()) {
      status_ = s.status();
      return;
    }
    values_.push_back(value);
    assigns_.push_back(assign.operation);
  }
}

absl::Status Saver::Save(const Session& session, const std::string& path) const {
  RILL_RETURN_IF_ERROR(status_);
  std::vector<Tensor> values;
  RILL_RETURN_IF_ERROR(session.Run(variables_, &values));
  NamedTensors named;
  for (size_t i = 0; i < variables_.size(); ++i) {
    named.emplace_back(variables_[i].node()->name(), values[i]);
  }
  return WriteCheckpoint(path, named);
}

absl::Status Saver::Restore(const Session& session, const std::string& path) const {
  RILL_RETURN_IF_ERROR(status_);
  RILL_ASSIGN_OR_RETURN(NamedTensors named, ReadCheckpoint(path));
  absl::flat_hash_map<std::string, const Tensor*> by_name;
  for (const auto& [name, t] : named) by_name[name] = &t;
  Session::FeedType feeds;
  for (size_t i = 0; i < variables_.size(); ++i) {
    const Node& v = *variables_[i].node();
    auto it = by_name.find(v.name());
    if (it == by_name.end()) {
      return errors::NotFound("variable '", v.name(), "' is not in checkpoint '", path, "'");
    }
    const Tensor& t = *it->second;
    if (t.dtype() != v.output_type(0) || !v.output_shape(0).IsCompatibleWith(t.shape())) {
      return errors::InvalidArgument("checkpoint '", path, "' holds '", v.name(), "' as ",
                                     DataTypeString(t.dtype()), " ", t.shape().DebugString(),
                                     ", but the variable is ", DataTypeString(v.output_type(0)),
                                     " ", v.output_shape(0).DebugString());
    }
    feeds.emplace(values_[i], Input::Initializer(t));
  }
  return session.Run(feeds, {}, assigns_, nullptr);
}

}  // namespace rill
