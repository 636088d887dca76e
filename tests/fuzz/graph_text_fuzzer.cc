// libFuzzer target: the graph-file syntax and attribute values. Any bytes parse to a
// message tree or give an InvalidArgument; every field of a parsed tree, read as an
// attribute value (tensors included), gives a value or an InvalidArgument. Then the same
// bytes as a GraphDef (its nodes read, written back, and added to a graph) and as a graph
// file imported: any Status will do, a crash or a sanitizer report is the finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "rill/runtime/io/attr_text.h"
#include "rill/runtime/io/graph_def.h"
#include "rill/runtime/io/graph_io.h"

namespace {
void Visit(const rill::text::Message& m, int depth) {
  if (depth > rill::text::kMaxDepth) __builtin_trap();
  for (const rill::text::Field& f : m.fields) {
    auto v = rill::AttrFromText(f);
    if (!v.ok() && v.status().code() != absl::StatusCode::kInvalidArgument) __builtin_trap();
    if (f.kind == rill::text::Field::kMessage) Visit(*f.message, depth + 1);
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The parsed lists refer into the text, which lives until Visit is done.
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto m = rill::text::Parse(text);
  if (!m.ok()) {
    if (m.status().code() != absl::StatusCode::kInvalidArgument) __builtin_trap();
    return 0;
  }
  Visit(*m, 0);
  const rill::GraphDef def(text);
  (void)def.text();
  (void)def.AddTo(rill::Scope::NewRootScope());
  (void)rill::GraphFromText(text, rill::Scope::NewRootScope());
  return 0;
}
