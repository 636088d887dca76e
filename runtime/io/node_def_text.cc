#include "rill/runtime/io/node_def_text.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "rill/core/device_name.h"
#include "rill/core/status.h"
#include "rill/runtime/io/attr_text.h"

namespace rill {
namespace {

absl::Status RepeatedField(const text::Field& f) {
  return errors::InvalidArgument("line ", f.line, ": '", f.name, "' is given twice");
}

absl::Status ParseNodeAttr(const text::Field& f, NodeDef* n) {
  RILL_ASSIGN_OR_RETURN(const text::Message* m, text::AsMessage(f));
  if (m->fields.size() != 2 || m->fields[0].name != "key") {
    return errors::InvalidArgument("line ", f.line, ": an attr is { key: \"name\" <kind>: value }");
  }
  RILL_ASSIGN_OR_RETURN(std::string key, text::AsString(m->fields[0]));
  bool taken = n->attr().contains(key);
  for (const auto& [k, fname] : n->function_attrs()) taken |= k == key;
  if (taken)
    return errors::InvalidArgument("line ", f.line, ": attribute '", key, "' is given twice");
  if (m->fields[1].name == "func") {  // resolved against the library when the node is added
    RILL_ASSIGN_OR_RETURN(std::string name, text::AsString(m->fields[1]));
    n->add_function_attr(std::move(key), std::move(name));
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(AttrValue v, AttrFromText(m->fields[1]));
  n->mutable_attr()->emplace(std::move(key), std::move(v));
  return absl::OkStatus();
}

// One field of a node other than its attributes.
absl::Status ParseNodeField(const text::Field& g, NodeDef* n) {
  static const std::set<std::string> kFields = {"input",  "name",          "op",
                                                "device", "colocate_with", "assigned_device"};
  if (!kFields.contains(g.name)) {
    return errors::InvalidArgument("line ", g.line, ": unknown node field '", g.name, "'");
  }
  RILL_ASSIGN_OR_RETURN(std::string s, text::AsString(g));
  if (g.name == "input") {
    n->add_input(std::move(s));
  } else if (g.name == "name") {
    n->set_name(std::move(s));
  } else if (g.name == "op") {
    n->set_op(std::move(s));
  } else if (g.name == "device") {
    n->set_device(std::move(s));
  } else if (g.name == "colocate_with") {
    n->set_colocate_with(std::move(s));
  } else {  // assigned_device
    if (!DeviceName::Parse(s).ok()) {
      return errors::InvalidArgument("line ", g.line, ": bad assigned device '", s, "'");
    }
    n->set_assigned_device(std::move(s));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<NodeDef> NodeDefFromText(const text::Field& f) {
  RILL_ASSIGN_OR_RETURN(const text::Message* m, text::AsMessage(f));
  NodeDef n;
  std::set<std::string> seen;
  for (const text::Field& g : m->fields) {
    if (g.name == "attr") {
      RILL_RETURN_IF_ERROR(ParseNodeAttr(g, &n));
      continue;
    }
    if (g.name != "input" && !seen.insert(g.name).second) return RepeatedField(g);
    RILL_RETURN_IF_ERROR(ParseNodeField(g, &n));
  }
  if (n.name().empty() || n.op().empty()) {
    return errors::InvalidArgument("line ", f.line, ": a node needs a name and an op");
  }
  return n;
}

absl::StatusOr<std::string> NodeDefToText(const NodeDef& n, const std::string& indent) {
  std::string out = absl::StrCat(indent, "node {\n", indent, "  name: ", text::Quote(n.name()),
                                 "\n", indent, "  op: ", text::Quote(n.op()), "\n");
  for (const std::string& in : n.input()) {
    absl::StrAppend(&out, indent, "  input: ", text::Quote(in), "\n");
  }
  const std::pair<const char*, const std::string*> fields[] = {
      {"device", &n.device()},
      {"colocate_with", &n.colocate_with()},
      {"assigned_device", &n.assigned_device()}};
  for (const auto& [field, value] : fields) {
    if (!value->empty())
      absl::StrAppend(&out, indent, "  ", field, ": ", text::Quote(*value), "\n");
  }
  for (const auto& [key, fname] : n.function_attrs()) {
    absl::StrAppend(&out, indent, "  attr { key: ", text::Quote(key), " func: ", text::Quote(fname),
                    " }\n");
  }
  for (const auto& [key, value] : n.attr()) {
    absl::StatusOr<std::string> v = AttrToText(value);
    if (!v.ok()) {
      return errors::Annotate(v.status(), absl::StrCat("node '", n.name(), "' (", n.op(),
                                                       "), attribute '", key, "': "));
    }
    absl::StrAppend(&out, indent, "  attr { key: ", text::Quote(key), " ", *v, " }\n");
  }
  absl::StrAppend(&out, indent, "}\n");
  return out;
}

}  // namespace rill
