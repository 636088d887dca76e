#include "rill/runtime/io/graph_dot.h"

#include <map>
#include <memory>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "rill/core/device_name.h"
#include "rill/runtime/file_util.h"

namespace rill {
namespace {

std::string Escape(absl::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out;
}

// Light fills, by device type and ordinal; copies have their own.
std::string DeviceColor(absl::string_view device) {
  if (device.empty()) return "#eeeeee";
  absl::StatusOr<DeviceName> d = DeviceName::Parse(device);
  if (!d.ok() || d->type.empty()) return "#eeeeee";
  static const char* kCpu[] = {"#cfe2f3", "#9fc5e8"};
  static const char* kGpu[] = {"#d9ead3", "#b6d7a8", "#93c47d", "#6aa84f"};
  const int id = d->id < 0 ? 0 : d->id;
  if (d->type == "GPU") return kGpu[id % 4];
  if (d->type == "CPU") return kCpu[id % 2];
  return "#ead1dc";
}

constexpr char kCopyColor[] = "#fce5cd";

// A cluster per name scope; nodes are listed in the innermost one.
struct Cluster {
  std::map<std::string, std::unique_ptr<Cluster>> children;
  std::vector<int> nodes;
};

void EmitNode(const GraphViewNode& n, int id, std::string* out, const std::string& indent) {
  absl::string_view short_name = n.name;
  if (size_t slash = short_name.rfind('/'); slash != absl::string_view::npos) {
    short_name = short_name.substr(slash + 1);
  }
  // "MatMul\nlogits"; just "MatMul" when the node is named after its op.
  std::string label = short_name == n.op || absl::StartsWith(short_name, n.op + "_")
                          ? n.op
                          : absl::StrCat(n.op, "\n", short_name);
  if (!n.device.empty()) {
    absl::StatusOr<DeviceName> d = DeviceName::Parse(n.device);
    label +=
        absl::StrCat("\n", d.ok() && !d->type.empty()
                               ? absl::StrCat(d->type, ":", d->id < 0 ? "*" : absl::StrCat(d->id))
                               : n.device);
  }
  if (n.is_fed) label += "\n(fed)";
  if (!n.replaces.empty())
    absl::StrAppend(&label, "\n(replaces ", absl::StrJoin(n.replaces, ", "), ")");
  absl::StrAppend(out, indent, "n", id, " [label=\"", Escape(label), "\", tooltip=\"",
                  Escape(n.name), "\"");
  if (n.is_copy) {
    absl::StrAppend(out, ", shape=ellipse, style=\"dashed,filled\", fillcolor=\"", kCopyColor,
                    "\"");
  } else {
    absl::StrAppend(out, ", fillcolor=\"", DeviceColor(n.device), "\"");
  }
  absl::StrAppend(out, "];\n");
}

void EmitCluster(const Cluster& c, const GraphView& view, const std::string& path, int depth,
                 int* next_cluster, std::string* out) {
  const std::string indent(2 * depth + 2, ' ');
  for (int id : c.nodes) EmitNode(view.nodes[id], id, out, indent);
  for (const auto& [name, child] : c.children) {
    const std::string full = path.empty() ? name : absl::StrCat(path, "/", name);
    absl::StrAppend(out, indent, "subgraph cluster_", (*next_cluster)++, " {\n", indent,
                    "  label=\"", Escape(full), "\"; style=\"rounded\"; color=\"#999999\";\n");
    EmitCluster(*child, view, full, depth + 1, next_cluster, out);
    absl::StrAppend(out, indent, "}\n");
  }
}

}  // namespace

std::string ToDot(const GraphView& view, const DotOptions& options) {
  std::string out = "digraph rill {\n";
  out += "  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=11";
  if (!options.title.empty()) absl::StrAppend(&out, ", label=\"", Escape(options.title), "\"");
  out += ", labelloc=t];\n";
  out += "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n";
  out += "  edge [fontname=\"Helvetica\", fontsize=8, color=\"#555555\"];\n";

  Cluster root;
  for (size_t i = 0; i < view.nodes.size(); ++i) {
    const GraphViewNode& n = view.nodes[i];
    Cluster* c = &root;
    if (options.name_scopes && !n.is_copy) {
      std::vector<std::string> parts = absl::StrSplit(n.name, '/');
      for (size_t k = 0; k + 1 < parts.size(); ++k) {
        auto& child = c->children[parts[k]];
        if (child == nullptr) child = std::make_unique<Cluster>();
        c = child.get();
      }
    }
    c->nodes.push_back(static_cast<int>(i));
  }
  int next_cluster = 0;
  EmitCluster(root, view, "", 0, &next_cluster, &out);

  for (size_t i = 0; i < view.nodes.size(); ++i) {
    for (const GraphViewEdge& e : view.nodes[i].inputs) {
      absl::StrAppend(&out, "  n", e.src, " -> n", i);
      if (e.control) {
        out += " [style=dotted, arrowhead=odot]";
      } else if (options.edge_labels && !e.label.empty()) {
        absl::StrAppend(&out, " [label=\"", Escape(e.label), "\"]");
      }
      out += ";\n";
    }
  }

  // The legend: one swatch per device seen, and the copy style if any.
  std::map<std::string, std::string> devices;
  bool copies = false;
  for (const GraphViewNode& n : view.nodes) {
    copies |= n.is_copy;
    if (!n.is_copy) devices[n.device.empty() ? "(no device)" : n.device] = DeviceColor(n.device);
  }
  out += "  subgraph cluster_legend {\n    label=\"devices\"; style=\"rounded\";\n";
  int k = 0;
  for (const auto& [name, color] : devices) {
    absl::StrAppend(&out, "    legend_", k++, " [label=\"", Escape(name), "\", fillcolor=\"", color,
                    "\"];\n");
  }
  if (copies) {
    absl::StrAppend(&out, "    legend_copy [label=\"copy between devices\", shape=ellipse, ",
                    "style=\"dashed,filled\", fillcolor=\"", kCopyColor, "\"];\n");
  }
  out += "  }\n}\n";
  return out;
}

absl::Status WriteDot(const GraphView& view, const std::string& path, const DotOptions& options) {
  return WriteFileAtomically(path, ToDot(view, options), "Graphviz file");
}

}  // namespace rill
