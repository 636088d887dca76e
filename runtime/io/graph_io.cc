#include "rill/runtime/io/graph_io.h"

#include <new>
#include <set>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "rill/core/device_name.h"
#include "rill/core/function.h"
#include "rill/runtime/file_util.h"
#include "rill/runtime/io/attr_text.h"
#include "rill/runtime/session.h"

namespace rill {
namespace {

// One node as the file says it, with inputs still by name.
struct NodeText {
  NodeSpec spec;                             // inputs and control_inputs left empty
  std::map<std::string, std::string> funcs;  // function attrs: key -> function name
  std::vector<std::pair<std::string, int>> inputs;
  std::vector<std::string> control_inputs;
  std::string assigned_device;
  int line = 0;
};

// A function of the file's library: its graph's nodes, its args (node names) and rets.
struct FunctionText {
  std::string name;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, int>> rets;
  std::vector<NodeText> nodes;
  int line = 0;
};

struct GraphText {
  std::vector<FunctionText> functions;  // each may call only those before it
  std::vector<NodeText> nodes;
  std::vector<std::string> initializers;
};

using Library = std::map<std::string, FunctionRef>;

absl::Status Repeated(const text::Field& f) {
  return errors::InvalidArgument("line ", f.line, ": '", f.name, "' is given twice");
}

// "a" or "a:1".
absl::StatusOr<std::pair<std::string, int>> ParseTensorName(const text::Field& f,
                                                            const char* what) {
  RILL_ASSIGN_OR_RETURN(std::string s, text::AsString(f));
  size_t colon = s.rfind(':');
  int index = 0;
  if (colon != std::string::npos) {
    if (!absl::SimpleAtoi(s.substr(colon + 1), &index) || index < 0) {
      return errors::InvalidArgument("line ", f.line, ": bad ", what, " '", s, "'");
    }
    s.resize(colon);
  }
  return std::make_pair(std::move(s), index);
}

// "a", "a:1", "^a".
absl::Status ParseInputName(const text::Field& f, NodeText* n) {
  RILL_ASSIGN_OR_RETURN(std::string s, text::AsString(f));
  if (!s.empty() && s[0] == '^') {
    n->control_inputs.push_back(s.substr(1));
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(auto in, ParseTensorName(f, "input"));
  n->inputs.push_back(std::move(in));
  return absl::OkStatus();
}

absl::Status ParseAttr(const text::Field& f, NodeText* n) {
  AttrMap* attrs = &n->spec.attrs;
  RILL_ASSIGN_OR_RETURN(const text::Message* m, text::AsMessage(f));
  if (m->fields.size() != 2 || m->fields[0].name != "key") {
    return errors::InvalidArgument("line ", f.line, ": an attr is { key: \"name\" <kind>: value }");
  }
  RILL_ASSIGN_OR_RETURN(std::string key, text::AsString(m->fields[0]));
  if (m->fields[1].name == "func") {  // resolved against the library when the node is added
    RILL_ASSIGN_OR_RETURN(std::string name, text::AsString(m->fields[1]));
    if (attrs->contains(key) || !n->funcs.emplace(key, std::move(name)).second) {
      return errors::InvalidArgument("line ", f.line, ": attribute '", key, "' is given twice");
    }
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(AttrValue v, AttrFromText(m->fields[1]));
  if (n->funcs.contains(key) || !attrs->emplace(key, std::move(v)).second) {
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
      RILL_RETURN_IF_ERROR(ParseAttr(g, &n));
    } else {
      return errors::InvalidArgument("line ", g.line, ": unknown node field '", g.name, "'");
    }
  }
  if (n.spec.name.empty() || n.spec.op.empty()) {
    return errors::InvalidArgument("line ", f.line, ": a node needs a name and an op");
  }
  return n;
}

absl::StatusOr<FunctionText> ParseFunction(const text::Field& f) {
  RILL_ASSIGN_OR_RETURN(const text::Message* m, text::AsMessage(f));
  FunctionText fn;
  fn.line = f.line;
  bool named = false;
  for (const text::Field& g : m->fields) {
    if (g.name == "name") {
      if (named) return Repeated(g);
      named = true;
      RILL_ASSIGN_OR_RETURN(fn.name, text::AsString(g));
    } else if (g.name == "arg") {
      RILL_ASSIGN_OR_RETURN(std::string a, text::AsString(g));
      fn.args.push_back(std::move(a));
    } else if (g.name == "ret") {
      RILL_ASSIGN_OR_RETURN(auto r, ParseTensorName(g, "ret"));
      fn.rets.push_back(std::move(r));
    } else if (g.name == "node") {
      RILL_ASSIGN_OR_RETURN(NodeText n, ParseNode(g));
      fn.nodes.push_back(std::move(n));
    } else {
      return errors::InvalidArgument("line ", g.line, ": unknown function field '", g.name, "'");
    }
  }
  if (fn.name.empty()) return errors::InvalidArgument("line ", f.line, ": a function needs a name");
  return fn;
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
    } else if (f.name == "function") {
      RILL_ASSIGN_OR_RETURN(FunctionText fn, ParseFunction(f));
      g.functions.push_back(std::move(fn));
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
// nodes earlier in the file, so the graph stays acyclic; functions, ones of `lib`.
absl::Status AddNodes(const std::vector<NodeText>& nodes, const Library& lib, Graph* graph,
                      std::vector<Node*>* added) {
  absl::flat_hash_map<std::string, Node*> by_name;
  for (const NodeText& nt : nodes) {
    NodeSpec spec = nt.spec;
    for (const auto& [key, fname] : nt.funcs) {
      auto f = lib.find(fname);
      if (f == lib.end()) {
        return errors::InvalidArgument("line ", nt.line, ": node '", nt.spec.name,
                                       "' calls function '", fname,
                                       "', which is not defined before it");
      }
      spec.attrs[key] = f->second;
    }
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
  return absl::OkStatus();
}

absl::Status AddInitializers(const GraphText& g, Graph* graph) {
  std::set<std::string> in_file;
  for (const NodeText& nt : g.nodes) in_file.insert(nt.spec.name);
  for (const std::string& name : g.initializers) {
    Node* n = in_file.contains(name) ? graph->FindNode(name) : nullptr;
    if (n == nullptr) {
      return errors::InvalidArgument("initializer '", name, "' is not a node of the file");
    }
    graph->AddInitializer(n);
  }
  return absl::OkStatus();
}

// The file's functions, each built into a graph of its own (and checked by
// Function::Create) before any node uses it.
absl::StatusOr<Library> BuildLibrary(const GraphText& g) {
  Library lib;
  for (const FunctionText& ft : g.functions) {
    auto graph = std::make_shared<Graph>();
    std::vector<Node*> added;
    absl::Status s = AddNodes(ft.nodes, lib, graph.get(), &added);
    std::vector<Node*> args;
    std::vector<NodeOut> rets;
    for (const std::string& a : ft.args) {
      args.push_back(graph->FindNode(a));
      if (s.ok() && args.back() == nullptr) s = errors::InvalidArgument("no arg node '", a, "'");
    }
    for (const auto& [name, index] : ft.rets) {
      rets.push_back({graph->FindNode(name), index});
      if (s.ok() && rets.back().node == nullptr) {
        s = errors::InvalidArgument("no ret node '", name, "'");
      }
    }
    absl::StatusOr<FunctionRef> f =
        s.ok() ? Function::Create(ft.name, graph, args, rets) : absl::StatusOr<FunctionRef>(s);
    if (!f.ok()) {
      return errors::Annotate(f.status(),
                              absl::StrCat("line ", ft.line, ": function '", ft.name, "': "));
    }
    if (!lib.emplace(ft.name, *f).second) {
      return errors::InvalidArgument("line ", ft.line, ": function '", ft.name,
                                     "' is defined twice");
    }
  }
  return lib;
}

}  // namespace

namespace {

using FunctionNames = absl::flat_hash_map<const Function*, std::string>;

// One node block; every line starts with `indent`.
absl::Status AppendNode(const Node* n, const GraphExportOptions& options,
                        const FunctionNames& names, const std::string& indent, std::string* out) {
  absl::StrAppend(out, indent, "node {\n", indent, "  name: ", text::Quote(n->name()), "\n", indent,
                  "  op: ", text::Quote(n->type_string()), "\n");
  for (int k = 0; k < n->num_inputs(); ++k) {
    NodeOut in = n->input(k);
    absl::StrAppend(out, indent,
                    "  input: ", text::Quote(absl::StrCat(in.node->name(), ":", in.index)), "\n");
  }
  for (const Node* c : n->control_inputs()) {
    absl::StrAppend(out, indent, "  input: ", text::Quote(absl::StrCat("^", c->name())), "\n");
  }
  if (!n->requested_device().empty()) {
    absl::StrAppend(out, indent, "  device: ", text::Quote(n->requested_device()), "\n");
  }
  if (!n->colocate_with().empty()) {
    absl::StrAppend(out, indent, "  colocate_with: ", text::Quote(n->colocate_with()), "\n");
  }
  if (options.session != nullptr && n->graph() == options.session->scope().graph()) {
    absl::StatusOr<std::string> d =
        options.session->AssignedDevice(Operation(const_cast<Node*>(n)));
    if (d.ok()) absl::StrAppend(out, indent, "  assigned_device: ", text::Quote(*d), "\n");
  }
  for (const auto& [key, value] : n->attrs()) {
    absl::StatusOr<std::string> v;
    if (const FunctionRef* f = std::get_if<FunctionRef>(&value)) {
      v = absl::StrCat("func: ", text::Quote(names.at(f->get())));
    } else {
      v = AttrToText(value);
    }
    if (!v.ok()) {
      return errors::Annotate(v.status(),
                              absl::StrCat(n->DebugName(), ", attribute '", key, "': "));
    }
    absl::StrAppend(out, indent, "  attr { key: ", text::Quote(key), " ", *v, " }\n");
  }
  absl::StrAppend(out, indent, "}\n");
  return absl::OkStatus();
}

// The functions a graph's nodes call, and theirs, as `function` blocks, callees first,
// each under a name unique in the file.
class LibraryWriter {
 public:
  absl::Status Add(const Graph& graph) {
    for (int i = 0; i < graph.num_nodes(); ++i) {
      for (const auto& [key, value] : graph.node(i)->attrs()) {
        const FunctionRef* f = std::get_if<FunctionRef>(&value);
        if (f == nullptr || *f == nullptr || names_.contains(f->get())) continue;
        RILL_RETURN_IF_ERROR(Add((*f)->graph()));
        RILL_RETURN_IF_ERROR(Write(**f));
      }
    }
    return absl::OkStatus();
  }
  const FunctionNames& names() const { return names_; }
  const std::string& text() const { return text_; }

 private:
  absl::Status Write(const Function& f) {
    std::string name = f.name();
    for (int k = 1; !used_.insert(name).second; ++k) name = absl::StrCat(f.name(), "_", k);
    names_[&f] = name;
    absl::StrAppend(&text_, "function {\n  name: ", text::Quote(name), "\n");
    for (const Node* a : f.args()) absl::StrAppend(&text_, "  arg: ", text::Quote(a->name()), "\n");
    for (const NodeOut& r : f.rets()) {
      absl::StrAppend(&text_, "  ret: ", text::Quote(absl::StrCat(r.node->name(), ":", r.index)),
                      "\n");
    }
    for (int i = 0; i < f.graph().num_nodes(); ++i) {
      RILL_RETURN_IF_ERROR(AppendNode(f.graph().node(i), {}, names_, "  ", &text_));
    }
    text_ += "}\n";
    return absl::OkStatus();
  }

  FunctionNames names_;
  std::set<std::string> used_;
  std::string text_;
};

}  // namespace

absl::StatusOr<std::string> GraphToText(const Graph& graph, const GraphExportOptions& options) {
  std::string out =
      absl::StrCat("# rill graph, text format ", kGraphFormatVersion,
                   " (docs/guide.md, \"Graph files\")\nversion: ", kGraphFormatVersion, "\n");
  LibraryWriter lib;
  RILL_RETURN_IF_ERROR(lib.Add(graph));
  out += lib.text();
  for (int i = 0; i < graph.num_nodes(); ++i) {
    RILL_RETURN_IF_ERROR(AppendNode(graph.node(i), options, lib.names(), "", &out));
  }
  for (const Node* init : graph.initializers()) {
    absl::StrAppend(&out, "initializer: ", text::Quote(init->name()), "\n");
  }
  return out;
}

absl::Status GraphFromText(absl::string_view s, const Scope& scope, GraphImportResult* result) {
  RILL_RETURN_IF_ERROR(scope.status());
  RILL_ASSIGN_OR_RETURN(GraphText g, ParseGraphText(s));
  RILL_ASSIGN_OR_RETURN(Library lib, BuildLibrary(g));
  // Everything is checked on a scratch graph first, so a bad file changes nothing.
  {
    Graph scratch;
    std::vector<Node*> ignored;
    RILL_RETURN_IF_ERROR(AddNodes(g.nodes, lib, &scratch, &ignored));
    RILL_RETURN_IF_ERROR(AddInitializers(g, &scratch));
  }
  Graph* graph = scope.graph();
  for (const NodeText& nt : g.nodes) {
    if (graph->HasNode(nt.spec.name)) {
      return errors::AlreadyExists("line ", nt.line, ": the graph already has a node named '",
                                   nt.spec.name, "'");
    }
  }
  std::vector<Node*> added;
  RILL_RETURN_IF_ERROR(AddNodes(g.nodes, lib, graph, &added));
  RILL_RETURN_IF_ERROR(AddInitializers(g, graph));
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
