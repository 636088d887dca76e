#include "rill/runtime/io/graph_io.h"

#include <new>
#include <queue>
#include <set>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "rill/core/device_name.h"
#include "rill/core/function.h"
#include "rill/runtime/file_util.h"
#include "rill/runtime/io/attr_text.h"
#include "rill/runtime/io/node_def_text.h"
#include "rill/runtime/session.h"

namespace rill {
namespace {

// One node as the file (or GraphDef) says it, with inputs still by name.
struct NodeText {
  NodeDef def;
  std::vector<std::pair<std::string, int>> inputs;
  std::vector<std::string> control_inputs;
  std::string where;  // "line 12" in a file, "GraphDef node 3" in a GraphDef
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
absl::StatusOr<std::pair<std::string, int>> ParseTensorName(std::string s, const std::string& where,
                                                            const char* what) {
  size_t colon = s.rfind(':');
  int index = 0;
  if (colon != std::string::npos) {
    if (!absl::SimpleAtoi(s.substr(colon + 1), &index) || index < 0) {
      return errors::InvalidArgument(where, ": bad ", what, " '", s, "'");
    }
    s.resize(colon);
  }
  return std::make_pair(std::move(s), index);
}

// A node, its inputs split into data ("a", "a:1") and control ("^a") inputs.
absl::StatusOr<NodeText> SplitInputs(NodeDef def, std::string where) {
  NodeText n;
  n.def = std::move(def);
  n.where = std::move(where);
  for (const std::string& in : n.def.input()) {
    if (!in.empty() && in[0] == '^') {
      n.control_inputs.push_back(in.substr(1));
      continue;
    }
    RILL_ASSIGN_OR_RETURN(auto name, ParseTensorName(in, n.where, "input"));
    n.inputs.push_back(std::move(name));
  }
  return n;
}

absl::StatusOr<NodeText> ParseNode(const text::Field& f) {
  RILL_ASSIGN_OR_RETURN(NodeDef def, NodeDefFromText(f));
  return SplitInputs(std::move(def), absl::StrCat("line ", f.line));
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
      RILL_ASSIGN_OR_RETURN(std::string ret, text::AsString(g));
      RILL_ASSIGN_OR_RETURN(auto r,
                            ParseTensorName(std::move(ret), absl::StrCat("line ", g.line), "ret"));
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

// The nodes in an order where each comes after its inputs (TensorFlow's GraphDefs list
// nodes in any order), else in the file's; InvalidArgument naming a node on a cycle.
absl::StatusOr<std::vector<const NodeText*>> InputsFirst(const std::vector<NodeText>& nodes) {
  absl::flat_hash_map<std::string, size_t> index;
  for (size_t i = 0; i < nodes.size(); ++i) index.emplace(nodes[i].def.name(), i);
  std::vector<std::vector<size_t>> consumers(nodes.size());
  std::vector<int> waiting(nodes.size(), 0);
  for (size_t i = 0; i < nodes.size(); ++i) {
    auto depend = [&](const std::string& name) {
      auto it = index.find(name);
      if (it == index.end()) return;  // AddNodes says so
      consumers[it->second].push_back(i);
      ++waiting[i];
    };
    for (const auto& in : nodes[i].inputs) depend(in.first);
    for (const std::string& c : nodes[i].control_inputs) depend(c);
  }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;  // file order first
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (waiting[i] == 0) ready.push(i);
  }
  std::vector<const NodeText*> order;
  while (!ready.empty()) {
    const size_t i = ready.top();
    ready.pop();
    order.push_back(&nodes[i]);
    for (size_t c : consumers[i]) {
      if (--waiting[c] == 0) ready.push(c);
    }
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (waiting[i] > 0) {
      return errors::InvalidArgument(nodes[i].where, ": node '", nodes[i].def.name(),
                                     "' is on a cycle of inputs");
    }
  }
  return order;
}

// The node's spec, its functions looked up in `lib`.
absl::StatusOr<NodeSpec> SpecOf(const NodeText& nt, const Library& lib) {
  NodeSpec spec{nt.def.name(),   nt.def.op(),           {}, {}, nt.def.attr(),
                nt.def.device(), nt.def.colocate_with()};
  for (const auto& [key, fname] : nt.def.function_attrs()) {
    auto f = lib.find(fname);
    if (f == lib.end()) {
      return errors::InvalidArgument(nt.where, ": node '", spec.name, "' calls function '", fname,
                                     "', which is not defined before it");
    }
    spec.attrs[key] = f->second;
  }
  return spec;
}

// Adds every node to `graph` (which must hold none of their names), inputs first (the
// graph stays acyclic); functions, ones of `lib`.
absl::Status AddNodes(const std::vector<NodeText>& nodes, const Library& lib, Graph* graph,
                      std::vector<Node*>* added) {
  RILL_ASSIGN_OR_RETURN(std::vector<const NodeText*> order, InputsFirst(nodes));
  absl::flat_hash_map<std::string, Node*> by_name;
  for (const NodeText* nt : order) {
    RILL_ASSIGN_OR_RETURN(NodeSpec spec, SpecOf(*nt, lib));
    auto lookup = [&](const std::string& name) -> absl::StatusOr<Node*> {
      auto it = by_name.find(name);
      if (it == by_name.end()) {
        return errors::InvalidArgument(nt->where, ": node '", spec.name, "' takes an input from '",
                                       name, "', which is not a node of the graph");
      }
      return it->second;
    };
    for (const auto& [name, index] : nt->inputs) {
      RILL_ASSIGN_OR_RETURN(Node * src, lookup(name));
      if (index >= src->num_outputs()) {
        return errors::InvalidArgument(nt->where, ": node '", spec.name, "' takes output ", index,
                                       " of ", src->DebugName(), ", which has ", src->num_outputs(),
                                       " outputs");
      }
      spec.inputs.push_back({src, index});
    }
    for (const std::string& name : nt->control_inputs) {
      RILL_ASSIGN_OR_RETURN(Node * src, lookup(name));
      spec.control_inputs.push_back(src);
    }
    absl::StatusOr<Node*> n = graph->AddNode(std::move(spec));
    if (!n.ok()) return errors::Annotate(n.status(), absl::StrCat(nt->where, ": "));
    by_name[(*n)->name()] = *n;
    added->push_back(*n);
  }
  return absl::OkStatus();
}

absl::Status AddInitializers(const GraphText& g, Graph* graph) {
  std::set<std::string> in_file;
  for (const NodeText& nt : g.nodes) in_file.insert(nt.def.name());
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

// A node of the graph as a NodeDef; functions by their names in the library written.
NodeDef NodeDefOf(const Node* n, const GraphExportOptions& options, const FunctionNames& names) {
  NodeDef def;
  def.set_name(n->name());
  def.set_op(n->type_string());
  for (int k = 0; k < n->num_inputs(); ++k) {
    const NodeOut in = n->input(k);
    def.add_input(absl::StrCat(in.node->name(), ":", in.index));
  }
  for (const Node* c : n->control_inputs()) def.add_input(absl::StrCat("^", c->name()));
  def.set_device(n->requested_device());
  def.set_colocate_with(n->colocate_with());
  if (options.session != nullptr && n->graph() == options.session->scope().graph()) {
    absl::StatusOr<std::string> d =
        options.session->AssignedDevice(Operation(const_cast<Node*>(n)));
    if (d.ok()) def.set_assigned_device(*d);
  }
  for (const auto& [key, value] : n->attrs()) {
    if (const FunctionRef* f = std::get_if<FunctionRef>(&value)) {
      def.add_function_attr(key, names.at(f->get()));
    } else {
      def.mutable_attr()->emplace(key, value);
    }
  }
  return def;
}

// One node block; every line starts with `indent`.
absl::Status AppendNode(const Node* n, const GraphExportOptions& options,
                        const FunctionNames& names, const std::string& indent, std::string* out) {
  RILL_ASSIGN_OR_RETURN(std::string block, NodeDefToText(NodeDefOf(n, options, names), indent));
  *out += block;
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

namespace {

// Adds a parsed graph to the scope's graph: all of it or, on an error, none of it.
absl::Status AddGraph(const GraphText& g, const Scope& scope, GraphImportResult* result) {
  RILL_RETURN_IF_ERROR(scope.status());
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
    if (graph->HasNode(nt.def.name())) {
      return errors::AlreadyExists(nt.where, ": the graph already has a node named '",
                                   nt.def.name(), "'");
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
      if (!nt.def.assigned_device().empty()) {
        result->assigned_devices[nt.def.name()] = nt.def.assigned_device();
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status GraphFromText(absl::string_view s, const Scope& scope, GraphImportResult* result) {
  RILL_RETURN_IF_ERROR(scope.status());
  RILL_ASSIGN_OR_RETURN(GraphText g, ParseGraphText(s));
  return AddGraph(g, scope, result);
}

absl::StatusOr<GraphParts> GraphToParts(const Graph& graph) {
  LibraryWriter lib;
  RILL_RETURN_IF_ERROR(lib.Add(graph));
  GraphParts parts;
  parts.library = lib.text();
  for (int i = 0; i < graph.num_nodes(); ++i) {
    parts.nodes.push_back(NodeDefOf(graph.node(i), {}, lib.names()));
  }
  for (const Node* init : graph.initializers()) parts.initializers.push_back(init->name());
  return parts;
}

absl::Status GraphFromParts(const GraphParts& parts, const Scope& scope) {
  RILL_RETURN_IF_ERROR(scope.status());
  // The library is text (functions are written as they were); the nodes are not.
  RILL_ASSIGN_OR_RETURN(GraphText g, ParseGraphText(absl::StrCat("version: ", kGraphFormatVersion,
                                                                 "\n", parts.library)));
  for (size_t i = 0; i < parts.nodes.size(); ++i) {
    RILL_ASSIGN_OR_RETURN(NodeText n,
                          SplitInputs(parts.nodes[i], absl::StrCat("GraphDef node ", i)));
    g.nodes.push_back(std::move(n));
  }
  g.initializers.insert(g.initializers.end(), parts.initializers.begin(), parts.initializers.end());
  return AddGraph(g, scope, nullptr);
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
