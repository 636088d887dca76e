// Graphviz pictures of graphs: nodes by op, filled by device (a legend says which colour
// is which), copies between devices as dashed ellipses, name scopes as nested clusters,
// dtype and shape on every data edge, control edges dotted.
//   RILL_ASSIGN_OR_RETURN(GraphView v, session.ViewPlan({.fetch = {loss}}));
//   std::string dot = ToDot(v);   // then: dot -Tsvg graph.dot -o graph.svg
// (scripts/render-graph.sh renders a file with Debian's graphviz.)
#pragma once

#include <string>

#include "rill/runtime/graph_view.h"

namespace rill {

struct DotOptions {
  std::string title;        // shown above the picture
  bool edge_labels = true;  // dtype and shape on data edges
  bool name_scopes = true;  // clusters for "scope/..." prefixes
};

std::string ToDot(const GraphView& view, const DotOptions& options = {});
absl::Status WriteDot(const GraphView& view, const std::string& path,
                      const DotOptions& options = {});

}  // namespace rill
