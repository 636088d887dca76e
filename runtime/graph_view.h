// A graph as a list of nodes with devices and labelled edges: what pictures are drawn from
// (runtime/io/graph_dot.h). Two sources: the user's graph with requested devices (or the
// devices a Session assigned), and a Session's execution plan for one signature, which
// also has the _Copy nodes between devices and nothing the signature does not need.
#pragma once

#include <string>
#include <vector>

#include "rill/core/graph.h"

namespace rill {

class Session;
struct ExecutionPlan;

struct GraphViewEdge {
  int src = -1;  // index into GraphView::nodes
  int src_output = 0;
  bool control = false;
  std::string label;  // "float [?,10]"; empty for control edges
};

struct GraphViewNode {
  std::string name;
  std::string op;
  std::string device;  // assigned if known, else requested, else empty
  bool is_copy = false;
  bool is_fed = false;  // its value comes from a feed (the plan does not run it)
  // In an optimized plan, a node that stands for others (a fusion, a folded constant):
  // the names of the user's nodes it replaced.
  std::vector<std::string> replaces;
  std::vector<GraphViewEdge> inputs;
};

struct GraphView {
  std::vector<GraphViewNode> nodes;
};

// Every node of the graph; devices as `session` assigned them where it has, else as
// requested.
GraphView ViewOfGraph(const Graph& graph, const Session* session = nullptr);
// The nodes of one execution plan, its copies, and the nodes whose values are fed.
GraphView ViewOfPlan(const ExecutionPlan& plan);

// "float [?,10]"
std::string EdgeLabel(DataType dtype, const PartialTensorShape& shape);

}  // namespace rill
