#include "rill/runtime/io/graph_def.h"

#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "rill/runtime/io/graph_io.h"
#include "rill/runtime/io/text_format.h"

namespace rill {

absl::Status Scope::ToGraphDef(GraphDef* out) const {
  RILL_RETURN_IF_ERROR(status());
  RILL_ASSIGN_OR_RETURN(std::string text, GraphToText(*graph()));
  *out = GraphDef(std::move(text));
  return absl::OkStatus();
}

absl::Status Session::Create(const GraphDef& graph) {
  RILL_RETURN_IF_ERROR(status());
  const Scope root = scope();
  if (root.graph()->num_nodes() > 0) {
    return errors::AlreadyExists("Session::Create: the Session already has a graph (",
                                 root.graph()->num_nodes(), " nodes); Extend adds to it");
  }
  return GraphFromText(graph.text(), root);
}

absl::Status Session::Extend(const GraphDef& graph) {
  RILL_RETURN_IF_ERROR(status());
  return GraphFromText(graph.text(), scope());
}

std::unique_ptr<Session> NewSession(const SessionOptions& options) {
  return std::make_unique<Session>(Scope::NewRootScope(), options);
}

absl::Status NewSession(const SessionOptions& options, std::unique_ptr<Session>* out) {
  *out = NewSession(options);
  return (*out)->status();
}

namespace {

// The text of def's graph as GraphToText writes it (one "node {" block per node).
absl::StatusOr<std::string> Canonical(const GraphDef& def) {
  Scope scope = Scope::NewRootScope();
  RILL_RETURN_IF_ERROR(GraphFromText(def.text(), scope));
  return GraphToText(*scope.graph());
}

}  // namespace

namespace graph {
void SetDefaultDevice(const std::string& device, GraphDef* def) {
  absl::StatusOr<std::string> text = Canonical(*def);
  if (!text.ok()) return;
  std::vector<std::string> lines = absl::StrSplit(*text, '\n');
  std::string out;
  bool has_device = false;
  size_t op_line = 0;  // a node's device line goes after this one (its last op or input)
  std::vector<std::string> block;
  auto flush = [&] {
    if (!block.empty() && !has_device && op_line > 0) {
      block.insert(block.begin() + static_cast<std::ptrdiff_t>(op_line) + 1,
                   absl::StrCat("  device: ", text::Quote(device)));
    }
    for (const std::string& l : block) absl::StrAppend(&out, l, "\n");
    block.clear();
    has_device = false;
    op_line = 0;
  };
  for (const std::string& line : lines) {
    if (line == "node {") flush();
    if (absl::StartsWith(line, "  device: ")) has_device = true;
    if (absl::StartsWith(line, "  op: ") || absl::StartsWith(line, "  input: ")) {
      op_line = block.size();
    }
    block.push_back(line);
  }
  flush();
  if (absl::EndsWith(out, "\n\n")) out.pop_back();  // the split's last, empty line
  *def = GraphDef(std::move(out));
}
}  // namespace graph

namespace {

// The graph's nodes as text blocks by name, after a round trip through a fresh graph (so
// that two texts of one graph compare equal however they were written).
absl::StatusOr<std::map<std::string, std::string>> NodeBlocks(const GraphDef& def) {
  RILL_ASSIGN_OR_RETURN(std::string text, Canonical(def));
  std::map<std::string, std::string> blocks;
  for (absl::string_view block : absl::StrSplit(text, "\nnode {\n", absl::SkipEmpty())) {
    if (!absl::StartsWith(block, "  name: \"")) continue;  // the header before the first node
    const size_t end = block.find("\"\n", 9);
    // The last block keeps the text's final newline; the others lost theirs to the split.
    blocks.emplace(std::string(block.substr(9, end - 9)),
                   std::string(absl::StripSuffix(block, "\n")));
  }
  return blocks;
}

// Why `actual` differs from `expected`, or "" when they are equal.
std::string FirstDifference(const std::map<std::string, std::string>& actual,
                            const std::map<std::string, std::string>& expected) {
  for (const auto& [name, block] : expected) {
    auto found = actual.find(name);
    if (found == actual.end()) return absl::StrCat("node '", name, "' is expected but missing");
    if (found->second != block) {
      return absl::StrCat("node '", name, "' differs; expected:\n", block, "\nactual:\n",
                          found->second);
    }
  }
  for (const auto& [name, block] : actual) {
    if (!expected.contains(name)) return absl::StrCat("node '", name, "' is not expected");
  }
  return "";
}

}  // namespace

bool EqualGraphDef(const GraphDef& actual, const GraphDef& expected, std::string* diff) {
  absl::StatusOr<std::map<std::string, std::string>> a = NodeBlocks(actual);
  absl::StatusOr<std::map<std::string, std::string>> e = NodeBlocks(expected);
  std::string why;
  if (!a.ok() || !e.ok()) {
    why = absl::StrCat("a GraphDef does not load: ", (a.ok() ? e : a).status().ToString());
  } else {
    why = FirstDifference(*a, *e);
  }
  if (diff != nullptr) *diff = why;
  return why.empty();
}

}  // namespace rill
