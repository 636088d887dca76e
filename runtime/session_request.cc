#include "rill/runtime/session_request.h"

#include <string>
#include <vector>

#include "rill/core/status.h"
#include "rill/runtime/tensor_names.h"

namespace rill {

namespace {

absl::Status CheckNode(const Node* n, const Graph* graph, absl::string_view what,
                       absl::string_view name) {
  if (n == nullptr) {
    return errors::InvalidArgument("a ", what, " is empty (its op failed to build; ",
                                   "see the scope's status)");
  }
  if (n->graph() != graph) {
    return errors::InvalidArgument(what, " '", name, "': ", n->DebugName(),
                                   " belongs to another graph than this Session's");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckOutput(const Output& o, const Graph* graph, absl::string_view what) {
  RILL_RETURN_IF_ERROR(CheckNode(o.node(), graph, what, o.name()));
  if (!o.node()->has_output(o.index())) {
    return errors::InvalidArgument(what, " '", o.name(), "': ", o.node()->DebugName(), " has ",
                                   o.node()->num_outputs(), " output(s); index ", o.index(),
                                   " is out of range");
  }
  return absl::OkStatus();
}

absl::Status CheckTarget(const Operation& op, const Graph* graph) {
  return CheckNode(op.node(), graph, "target", op.name());
}

namespace {

// The Outputs (or Operations) of one list of a CallableOptions: `given`, or `names` looked
// up in the graph; not both.
template <typename T, typename Find>
absl::StatusOr<std::vector<T>> Resolve(const std::vector<T>& given,
                                       const std::vector<std::string>& names, const Graph* graph,
                                       const char* what, Find find) {
  if (names.empty()) return given;
  if (!given.empty()) {
    return errors::InvalidArgument("CallableOptions: ", what, " given both as ", given.size(),
                                   " handles and as ", names.size(),
                                   " names; give one or the other");
  }
  std::vector<T> out;
  for (const std::string& name : names) {
    RILL_ASSIGN_OR_RETURN(T found, find(*graph, name));
    out.push_back(found);
  }
  return out;
}

}  // namespace

absl::Status RequestOf(const CallableOptions& in, const Graph* graph, PlanRequest* req) {
  CallableOptions options;
  RILL_ASSIGN_OR_RETURN(
      options.feed, Resolve(in.feed, in.feed_names, graph, "feeds",
                            [](const Graph& g, absl::string_view n) { return FindOutput(g, n); }));
  RILL_ASSIGN_OR_RETURN(
      options.fetch, Resolve(in.fetch, in.fetch_names, graph, "fetches",
                             [](const Graph& g, absl::string_view n) { return FindOutput(g, n); }));
  RILL_ASSIGN_OR_RETURN(options.target, Resolve(in.target, in.target_names, graph, "targets",
                                                [](const Graph& g, absl::string_view n) {
                                                  return FindOperation(g, n);
                                                }));
  for (const Output& o : options.feed) {
    RILL_RETURN_IF_ERROR(CheckOutput(o, graph, "feed"));
    req->feeds.push_back({o.node(), o.index()});
  }
  for (const Output& o : options.fetch) {
    RILL_RETURN_IF_ERROR(CheckOutput(o, graph, "fetch"));
    req->fetches.push_back({o.node(), o.index()});
  }
  for (const Operation& op : options.target) {
    RILL_RETURN_IF_ERROR(CheckTarget(op, graph));
    req->targets.push_back(op.node());
  }
  return absl::OkStatus();
}

absl::Status CheckFedValue(const Node& n, const Tensor& t) {
  const PartialTensorShape& want = n.output_shape(0);
  if (!t.IsInitialized()) {
    return errors::InvalidArgument("the value fed to '", n.name(), "' is not initialized");
  }
  if (t.dtype() != n.output_type(0) || !want.IsCompatibleWith(t.shape())) {
    return errors::InvalidArgument(n.IsPlaceholder() ? "placeholder '" : "tensor '", n.name(),
                                   "' expects ", DataTypeString(n.output_type(0)), " of shape ",
                                   want.DebugString(), "; fed ", DataTypeString(t.dtype()),
                                   " of shape ", t.shape().DebugString());
  }
  if (!t.OnHost()) {
    return errors::InvalidArgument("the value fed to '", n.name(), "' must be a host tensor");
  }
  return absl::OkStatus();
}

}  // namespace rill
