// What a Run or a callable asks of a Session (feeds, fetches, targets), checked against
// the Session's graph before a plan is looked up or built.
#pragma once

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "rill/runtime/plan.h"
#include "rill/runtime/session.h"

namespace rill {

// An Output of `graph` that the node has: InvalidArgument naming `what` ("feed", "fetch")
// for an empty Output, one of another graph (node ids key the plan cache, so it would
// alias one of ours) or an index past the node's outputs.
absl::Status CheckOutput(const Output& o, const Graph* graph, absl::string_view what);
absl::Status CheckTarget(const Operation& op, const Graph* graph);
// A value fed to node `n` (a Placeholder, or any node whose output a Run feeds): it holds
// a value of n's dtype and a shape n's static shape takes, on the host. The plans' kernels
// trust fed values, so Session::Run and calls into functions check them here.
absl::Status CheckFedValue(const Node& n, const Tensor& t);
// The plan request of a callable, its names (add_feed, ...) looked up in `graph`.
absl::Status RequestOf(const CallableOptions& options, const Graph* graph, PlanRequest* req);

}  // namespace rill
