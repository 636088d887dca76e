#include "rill/runtime/io/graph_io.h"

#include <new>
#include <set>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "rill/core/device_name.h"
#include "rill/runtime/file_util.h"
#include "rill/runtime/io/attr_text.h"
#include "rill/runtime/session.h"

namespace rill {
namespace {

// One node as the file says it, with inputs still by name.
struct NodeText {
  NodeSpec spec;  // inputs and control_inputs left empty
  std::vector<std::pair<std::string, int>> inputs;
  std::vector<std::string> control_inputs;
  std::string assigned_device;
  int line = 0;
};

struct GraphText {
  std::vector<NodeText> nodes;
  std::vector<std::string> initializers;
};

absl::Status Repeated(const text::Field& f) {
  return errors::InvalidArgument("line ", f.line, ": '", f.name, "' is given twice");
}

// "a", "a:1", "^a".
absl::Status ParseInputName(const text::Field& f, NodeText* n) {
  RILL_ASSIGN_OR_RETURN(std::string s, text::AsString(f));
  if (!s.empty() && s[0] == '^') {
    n->control_inputs.push_back(s.substr(1));
    return absl::OkStatus();
  }
  size_t colon = s.rfind(':');
  int index = 0;
  if (colon != std::string::npos) {
    if (!absl::SimpleAtoi(s.substr(colon + 1), &index) || index < 0) {
      return errors::InvalidArgument("line ", f.line, ": bad input '", s, "'");
    }
    s.resize(colon);
  }
  n->inputs.emplace_back(std::move(s), index);
  return absl::OkStatus();
}

absl::Status ParseAttr(const text::Field& f, AttrMap* attrs) {
  RILL_ASSIGN_OR_RETURN(const text::Message* m, text::AsMessage(f));
  if (m->fields.size() != 2 || m->fields[0].name != "key") {
    return errors::InvalidArgument("line ", f.line, ": an attr is { key: \"name\" <kind>: value }");
  }
  RILL_ASSIGN_OR_RETURN(std::string key, text::AsString(m->fields[0]));
  RILL_ASSIGN_OR_RETURN(AttrValue v, AttrFromText(m->fields[1]));
  if (!attrs->emplace(key, std::move(v)).second) {
    return errors::InvalidArgument("line ", f.line, ": attribute '", key, "' is given twice");
  }
  return absl::OkStatus();
}

absl::StatusOr<NodeText> ParseNode(const text::Field& f) {
  RILL_ASSIGN_OR_RETURN(const text::Message* m, text::AsMessage(f));
  NodeText n;
  n.line = f.line;
  std::set<std::string> seen;
  for (const text::Field& g : m->fields) {
    const bool single = g.name != "input" && g.name != "attr";
    if (single && !seen.insert(g.name).second) return Repeated(g);
    if (g.name == "name") {
      RILL_ASSIGN_OR_RETURN(n.spec.name, text::AsString(g));
    } else if (g.name == "op") {
      RILL_ASSIGN_OR_RETURN(n.spec.op, text::AsString(g));
    } else if (g.name == "input") {
      RILL_RETURN_IF_ERROR(ParseInputName(g, &n));
    } else if (g.name == "device") {
      RILL_ASSIGN_OR_RETURN(n.spec.device, text::AsString(g));
    } else if (g.name == "colocate_with") {
      RILL_ASSIGN_OR_RETURN(n.spec.colocate_with, text::AsString(g));
    } else if (g.name == "assigned_device") {
      RILL_ASSIGN_OR_RETURN(n.assigned_device, text::AsString(g));
      if (!DeviceName::Parse(n.assigned_device).ok()) {
        return errors::InvalidArgument("line ", g.line, ": bad assigned device '",
                                       n.assigned_device, "'");
      }
    } else if (g.name == "attr") {
      RILL_RETURN_IF_ERROR(ParseAttr(g, &n.spec.attrs));
    } else {
      return errors::InvalidArgument("line ", g.line, ": unknown node field '", g.name, "'");
    }
  }
  if (n.spec.name.empty() || n.spec.op.empty()) {
    return errors::InvalidArgument("line ", f.line, ": a node needs a name and an op");
  }
  return n;
}

absl::StatusOr<GraphText> ParseGraphText(absl::string_view s) {
  RILL_ASSIGN_OR_RETURN(text::Message top, text::Parse(s));
  GraphText g;
  bool have_version = false;
  for (const text::Field& f : top.fields) {
    if (f.name == "version") {
      if (have_version) return Repeated(f);
      RILL_ASSIGN_OR_RETURN(int64_t v, text::AsInt(f));
      if (v != kGraphFormatVersion) {
        return errors::InvalidArgument("line ", f.line, ": graph format version ", v,
                                       " is not supported (this build reads version ",
                                       kGraphFormatVersion, ")");
      }
      have_version = true;
    } else if (f.name == "node") {
      RILL_ASSIGN_OR_RETURN(NodeText n, ParseNode(f));
      g.nodes.push_back(std::move(n));
    } else if (f.name == "initializer") {
      RILL_ASSIGN_OR_RETURN(std::string name, text::AsString(f));
      g.initializers.push_back(std::move(name));
    } else {
      return errors::InvalidArgument("line ", f.line, ": unknown field '", f.name, "'");
    }
  }
  if (!have_version) return errors::InvalidArgument("not a rill graph file: no 'version' field");
  return g;
}

// Adds every node to `graph` (which must hold none of their names). Inputs must name
// nodes earlier in the file, so the graph stays acyclic.
absl::Status AddNodes(const GraphText& g, Graph* graph, std::vector<Node*>* added) {
  absl::flat_hash_map<std::string, Node*> by_name;
  for (const NodeText& nt : g.nodes) {
    NodeSpec spec = nt.spec;
    auto lookup = [&](const std::string& name) -> absl::StatusOr<Node*> {
      auto it = by_name.find(name);
      if (it == by_name.end()) {
        return errors::InvalidArgument("line ", nt.line, ": node '", nt.spec.name,
                                       "' takes an input from '", name,
                                       "', which is not defined before it");
      }
      return it->second;
    };
    for (const auto& [name, index] : nt.inputs) {
      RILL_ASSIGN_OR_RETURN(Node * src, lookup(name));
      if (index >= src->num_outputs()) {
        return errors::InvalidArgument("line ", nt.line, ": node '", nt.spec.name,
                                       "' takes output ", index, " of ", src->DebugName(),
                                       ", which has ", src->num_outputs(), " outputs");
      }
      spec.inputs.push_back({src, index});
    }
    for (const std::string& name : nt.control_inputs) {
      RILL_ASSIGN_OR_RETURN(Node * src, lookup(name));
      spec.control_inputs.push_back(src);
    }
    absl::StatusOr<Node*> n = graph->AddNode(std::move(spec));
    if (!n.ok()) return errors::Annotate(n.status(), absl::StrCat("line ", nt.line, ": "));
    by_name[(*n)->name()] = *n;
    added->push_back(*n);
  }
  for (const std::string& name : g.initializers) {
    auto it = by_name.find(name);
    if (it == by_name.end()) {
      return errors::InvalidArgument("initializer '", name, "' is not a node of the file");
    }
    graph->AddInitializer(it->second);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> GraphToText(const Graph& graph, const GraphExportOptions& options) {
  std::string out =
      absl::StrCat("# rill graph, text format ", kGraphFormatVersion,
                   " (docs/guide.md, \"Graph files\")\nversion: ", kGraphFormatVersion, "\n");
  for (int i = 0; i < graph.num_nodes(); ++i) {
    Node* n = graph.node(i);
    absl::StrAppend(&out, "node {\n  name: ", text::Quote(n->name()),
                    "\n  op: ", text::Quote(n->type_string()), "\n");
    for (int k = 0; k < n->num_inputs(); ++k) {
      NodeOut in = n->input(k);
      absl::StrAppend(&out, "  input: ", text::Quote(absl::StrCat(in.node->name(), ":", in.index)),
                      "\n");
    }
    for (const Node* c : n->control_inputs()) {
      absl::StrAppend(&out, "  input: ", text::Quote(absl::StrCat("^", c->name())), "\n");
    }
    if (!n->requested_device().empty()) {
      absl::StrAppend(&out, "  device: ", text::Quote(n->requested_device()), "\n");
    }
    if (!n->colocate_with().empty()) {
      absl::StrAppend(&out, "  colocate_with: ", text::Quote(n->colocate_with()), "\n");
    }
    if (options.session != nullptr) {
      absl::StatusOr<std::string> d = options.session->AssignedDevice(Operation(n));
      if (d.ok()) absl::StrAppend(&out, "  assigned_device: ", text::Quote(*d), "\n");
    }
    for (const auto& [key, value] : n->attrs()) {
      absl::StatusOr<std::string> v = AttrToText(value);
      if (!v.ok()) {
        return errors::Annotate(v.status(),
                                absl::StrCat(n->DebugName(), ", attribute '", key, "': "));
      }
      absl::StrAppend(&out, "  attr { key: ", text::Quote(key), " ", *v, " }\n");
    }
    out += "}\n";
  }
  for (const Node* init : graph.initializers()) {
    absl::StrAppend(&out, "initializer: ", text::Quote(init->name()), "\n");
  }
  return out;
}

absl::Status GraphFromText(absl::string_view s, const Scope& scope, GraphImportResult* result) {
  RILL_RETURN_IF_ERROR(scope.status());
  RILL_ASSIGN_OR_RETURN(GraphText g, ParseGraphText(s));
  // Everything is checked on a scratch graph first, so a bad file changes nothing.
  {
    Graph scratch;
    std::vector<Node*> ignored;
    RILL_RETURN_IF_ERROR(AddNodes(g, &scratch, &ignored));
  }
  Graph* graph = scope.graph();
  for (const NodeText& nt : g.nodes) {
    if (graph->HasNode(nt.spec.name)) {
      return errors::AlreadyExists("line ", nt.line, ": the graph already has a node named '",
                                   nt.spec.name, "'");
    }
  }
  std::vector<Node*> added;
  RILL_RETURN_IF_ERROR(AddNodes(g, graph, &added));
  if (result != nullptr) {
    result->nodes.clear();
    result->assigned_devices.clear();
    for (Node* n : added) result->nodes.emplace_back(n);
    for (const NodeText& nt : g.nodes) {
      if (!nt.assigned_device.empty()) {
        result->assigned_devices[nt.spec.name] = nt.assigned_device;
      }
    }
  }
  return absl::OkStatus();
}

absl::Status SaveGraph(const Graph& graph, const std::string& path,
                       const GraphExportOptions& options) {
  RILL_ASSIGN_OR_RETURN(std::string text, GraphToText(graph, options));
  return WriteFileAtomically(path, text, "graph file");
}

absl::Status LoadGraph(const std::string& path, const Scope& scope, GraphImportResult* result) {
  RILL_ASSIGN_OR_RETURN(std::string text, ReadFileToString(path, "graph file", kMaxGraphFileBytes));
  absl::Status st;
  try {
    st = GraphFromText(text, scope, result);
  } catch (const std::bad_alloc&) {
    st = errors::ResourceExhausted("out of memory loading it (", text.size(), " bytes)");
  }
  if (!st.ok()) return errors::Annotate(st, absl::StrCat(path, ": "));
  return st;
}

}  // namespace rill
