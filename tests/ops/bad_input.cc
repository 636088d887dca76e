#include "ops/bad_input.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace rill::testing {

Tensor F(std::vector<int64_t> shape, std::vector<float> values) {
  Tensor t(DT_FLOAT, TensorShape(absl::MakeConstSpan(shape)));
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    t.base<float>()[i] = values.empty() ? static_cast<float>(i + 1) : values[i];
  }
  return t;
}

Tensor I(std::vector<int64_t> shape, std::vector<int32_t> values) {
  Tensor t(DT_INT32, TensorShape(absl::MakeConstSpan(shape)));
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    t.base<int32_t>()[i] = values.empty() ? static_cast<int32_t>(i + 1) : values[i];
  }
  return t;
}

std::map<std::string, Recipe>& Recipes() {
  static auto* r = new std::map<std::string, Recipe>;
  return *r;
}
std::vector<BadCase>& SpecificCases() {
  static auto* c = new std::vector<BadCase>;
  return *c;
}
AddRecipe::AddRecipe(Recipe r) { Recipes().insert_or_assign(r.op, std::move(r)); }
AddCase::AddCase(std::string what, Recipe r, Where where, absl::StatusCode code,
                 std::vector<std::string> mentions, bool names_device) {
  SpecificCases().push_back(
      {std::move(what), std::move(r), where, code, std::move(mentions), false, names_device});
}

namespace {
namespace bad_input {

// How many of `n` inputs a list argument takes: what the fixed ones leave.
size_t ListCount(const OpDef& def, size_t n) {
  size_t fixed = 0;
  for (const ArgDef& a : def.inputs) fixed += a.number_attr.empty() && a.type_list_attr.empty();
  return n > fixed ? n - fixed : 0;
}

// Which of `n` inputs are refs.
std::vector<bool> RefInputs(const OpDef& def, size_t n) {
  const size_t list = ListCount(def, n);
  std::vector<bool> ref;
  for (const ArgDef& a : def.inputs) {
    const bool single = a.number_attr.empty() && a.type_list_attr.empty();
    for (size_t k = 0; k < (single ? 1 : list); ++k) ref.push_back(a.is_ref);
  }
  ref.resize(n, false);
  return ref;
}

Node* AddConst(Graph* g, const std::string& name, const Tensor& v) {
  NodeSpec c;
  c.name = name;
  c.op = "Const";
  c.attrs = {{"value", v}, {"dtype", v.dtype()}};
  return *g->AddNode(std::move(c));
}

}  // namespace bad_input
}  // namespace

Outcome Try(const Recipe& r, bool fed) {
  Outcome o;
  Scope root = Scope::NewRootScope();
  Graph* g = root.graph();
  const OpDef* def = OpRegistry::Global()->LookUp(r.op);
  const std::vector<bool> ref =
      def ? bad_input::RefInputs(*def, r.inputs.size()) : std::vector<bool>();
  NodeSpec spec;
  spec.name = "bad_node";
  spec.op = r.op;
  spec.attrs = r.attrs;
  Session::FeedType feeds;
  std::vector<Operation> inits;
  for (size_t i = 0; i < r.inputs.size(); ++i) {
    const Tensor& v = r.inputs[i];
    const std::string name = absl::StrCat("in", i);
    Node* in = nullptr;
    if (ref[i]) {
      NodeSpec var;
      var.name = name;
      var.op = "Variable";
      var.attrs = {{"shape", PartialTensorShape(v.shape())}, {"dtype", v.dtype()}};
      in = *g->AddNode(std::move(var));
      NodeSpec assign;
      assign.name = name + "/Assign";
      assign.op = "Assign";
      assign.inputs = {{in, 0}, {bad_input::AddConst(g, name + "/value", v), 0}};
      inits.emplace_back(*g->AddNode(std::move(assign)));
    } else if (fed) {
      NodeSpec p;
      p.name = name;
      p.op = "Placeholder";
      p.attrs = {{"dtype", v.dtype()}, {"shape", PartialTensorShape()}};
      in = *g->AddNode(std::move(p));
      feeds.emplace(Output(in, 0), Input::Initializer(v));
    } else {
      in = bad_input::AddConst(g, name, v);
    }
    spec.inputs.push_back({in, 0});
  }
  if (r.tweak) r.tweak(g, &spec);
  absl::StatusOr<Node*> node = g->AddNode(std::move(spec));
  o.added = node.status();
  if (!node.ok()) return o;
  Session session(root, SessionOptions(), CpuOnly());
  if (!inits.empty()) o.ran = session.Run({}, {}, inits, nullptr);
  std::vector<Output> fetch;
  for (int k = 0; k < (*node)->num_outputs(); ++k) {
    if (std::find(r.dead_outputs.begin(), r.dead_outputs.end(), k) == r.dead_outputs.end()) {
      fetch.emplace_back(*node, k);
    }
  }
  std::vector<Tensor> out;
  if (o.ran.ok()) o.ran = session.Run(feeds, fetch, {Operation(*node)}, &out);
  return o;
}

std::vector<BadCase> GenericCases(const Recipe& r) {
  const OpDef* def = OpRegistry::Global()->LookUp(r.op);
  std::vector<BadCase> cases;
  auto add = [&](std::string what, Recipe changed, std::vector<std::string> mentions) {
    cases.push_back({std::move(what), std::move(changed), Where::kConstruction,
                     absl::StatusCode::kInvalidArgument, std::move(mentions), true, false});
  };
  bool has_list = false;
  for (const ArgDef& a : def->inputs)
    has_list |= !a.number_attr.empty() || !a.type_list_attr.empty();
  if (!has_list) {
    Recipe more = r;
    more.inputs.push_back(r.inputs.empty() ? F({1}) : r.inputs.back());
    add("one input too many", more, {"inputs"});
    if (!r.inputs.empty()) {
      Recipe fewer = r;
      fewer.inputs.pop_back();
      add("one input too few", fewer, {"inputs"});
    }
  }
  Recipe device = r;
  device.tweak = [](Graph*, NodeSpec* s) { s->device = "/device:CPU:zero"; };
  add("a malformed device string", device, {"CPU:zero"});
  Recipe missing_output = r;
  missing_output.tweak = [](Graph* g, NodeSpec* s) {
    s->inputs.insert(s->inputs.begin(), {bad_input::AddConst(g, "one", F({1})), 3});
  };
  add("an input from output 3 of a one-output node", missing_output, {"missing output"});
  Recipe foreign = r;
  foreign.tweak = [](Graph*, NodeSpec* s) {
    static Scope* other = new Scope(Scope::NewRootScope());
    static Node* node = bad_input::AddConst(other->graph(), "elsewhere", F({1}));
    s->control_inputs.push_back(node);
  };
  add("a control input from another graph", foreign, {"control input"});
  Recipe unknown = r;
  unknown.attrs["frobnicate"] = int64_t{1};
  add("an unknown attribute", unknown, {"frobnicate"});
  for (const AttrDef& a : def->attrs) {
    Recipe wrong = r;
    wrong.attrs[a.name] = a.kind == AttrKind::kString ? AttrValue(int64_t{7}) : AttrValue("x");
    add(absl::StrCat("attribute '", a.name, "' of the wrong kind"), wrong, {a.name});
    break;  // the first attribute; op-specific cases cover the others
  }
  // complex64 exists for host tensors only: no type attribute takes it, listed or not.
  for (const AttrDef& a : def->attrs) {
    if (a.kind != AttrKind::kType) continue;
    Recipe complex = r;
    complex.attrs[a.name] = DT_COMPLEX64;
    add(absl::StrCat("type attribute '", a.name, "' set to complex64"), complex, {"complex64"});
    break;
  }
  for (const AttrDef& a : def->attrs) {
    if (a.default_value || a.kind == AttrKind::kType || !r.attrs.contains(a.name)) continue;
    Recipe missing = r;
    missing.attrs.erase(a.name);
    add(absl::StrCat("required attribute '", a.name, "' missing"), missing, {a.name});
    break;
  }
  // An input of a dtype the op does not take: bool where the type attribute excludes it,
  // or a float where a fixed integer type is required.
  const std::vector<bool> ref = bad_input::RefInputs(*def, r.inputs.size());
  size_t index = 0;
  for (const ArgDef& a : def->inputs) {
    if (index >= r.inputs.size()) break;
    const AttrDef* t = a.type_attr.empty() ? nullptr : def->FindAttr(a.type_attr);
    const bool excludes_bool = t && !t->allowed_types.empty() &&
                               std::find(t->allowed_types.begin(), t->allowed_types.end(),
                                         DT_BOOL) == t->allowed_types.end();
    if ((excludes_bool || a.type != DT_INVALID) && !ref[index] && !r.attrs.contains(a.type_attr)) {
      Recipe wrong = r;
      Tensor& v = wrong.inputs[index];
      Tensor other(a.type != DT_INVALID ? (a.type == DT_FLOAT ? DT_INT32 : DT_FLOAT) : DT_BOOL,
                   v.shape());
      std::memset(other.data(), 0, other.TotalBytes());
      v = other;
      add(absl::StrCat("input '", a.name, "' of dtype ", DataTypeString(other.dtype())), wrong,
          {DataTypeString(other.dtype())});
      break;
    }
    index += a.number_attr.empty() && a.type_list_attr.empty()
                 ? 1
                 : bad_input::ListCount(*def, r.inputs.size());
  }
  return cases;
}

void Both(const std::string& what, const Recipe& r, std::vector<std::string> mentions) {
  AddCase(what + " (at construction)", r, Where::kConstruction, absl::StatusCode::kInvalidArgument,
          mentions);
  AddCase(what + " (in the kernel)", r, Where::kRun, absl::StatusCode::kInvalidArgument,
          std::move(mentions));
}

}  // namespace rill::testing
