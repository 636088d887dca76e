#include "rill/core/graph.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "rill/core/device_name.h"
#include "rill/core/function.h"
#include "rill/core/shape_inference.h"

namespace rill {

DataType Node::input_type(int i) const {
  NodeOut in = inputs_[i];
  return in.node->output_type(in.index);
}

const Tensor* Node::constant_value() const {
  if (!IsConstant()) return nullptr;
  return &std::get<Tensor>(attrs_.at("value"));
}

std::string Node::DebugName() const {
  return absl::StrCat("node '", name_, "' (", type_string(), ")");
}

namespace {

bool ValidNodeName(absl::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' ||
          c == '/'))
      return false;
  }
  return name.front() != '/' && name.back() != '/';
}

absl::Status CheckAttrs(const OpDef& def, AttrMap& attrs) {
  for (const auto& [k, v] : attrs) {
    const AttrDef* a = def.FindAttr(k);
    if (a == nullptr) {
      return errors::InvalidArgument("unknown attribute '", k, "'");
    }
    if (KindOf(v) != a->kind) {
      return errors::InvalidArgument("attribute '", k, "' must be a ", AttrKindName(a->kind),
                                     ", got a ", AttrKindName(KindOf(v)));
    }
    if (const FunctionRef* f = std::get_if<FunctionRef>(&v); f != nullptr && *f == nullptr) {
      return errors::InvalidArgument("attribute '", k, "' holds no function");
    }
    if (const auto* list = std::get_if<std::vector<DataType>>(&v)) {
      if (list->size() > static_cast<size_t>(kMaxOutputListLength)) {
        return errors::InvalidArgument("attribute '", k, "' lists ", list->size(),
                                       " dtypes; at most ", kMaxOutputListLength);
      }
      for (DataType t : *list) {
        if (!DataTypeIsValid(t) || t == DT_COMPLEX64) {
          return errors::InvalidArgument("attribute '", k, "' lists ", DataTypeString(t),
                                         ", not a dtype rill computes with");
        }
      }
    }
  }
  return absl::OkStatus();
}

// The inputs of a list(type) arg: every input up to the fixed args after it. Sets the
// attr from their dtypes, or checks them against it when the caller gave it.
absl::Status ResolveInputTypeList(const OpDef& def, const ArgDef& arg, NodeSpec& spec, size_t* next,
                                  std::vector<bool>* refs) {
  const size_t fixed_after = def.inputs.size() - (&arg - def.inputs.data()) - 1;
  if (spec.inputs.size() < *next + fixed_after) {
    return errors::InvalidArgument("too few inputs: ", spec.inputs.size());
  }
  const size_t count = spec.inputs.size() - *next - fixed_after;
  std::vector<DataType> got;
  for (size_t k = 0; k < count; ++k, ++*next) {
    const NodeOut in = spec.inputs[*next];
    got.push_back(in.node->output_type(in.index));
    refs->push_back(false);
  }
  auto it = spec.attrs.find(arg.type_list_attr);
  if (it == spec.attrs.end()) {
    spec.attrs[arg.type_list_attr] = got;
  } else if (std::get<std::vector<DataType>>(it->second) != got) {
    return errors::InvalidArgument("input list '", arg.name, "' has dtypes ",
                                   AttrValueDebugString(AttrValue(got)), " but '",
                                   arg.type_list_attr, "' is ", AttrValueDebugString(it->second));
  }
  return absl::OkStatus();
}

absl::Status CheckAllowed(const AttrDef& a, DataType dt) {
  // Every type attribute names a real dtype, allowed list or not (Cast's DstT included):
  // an invalid one would reach kernels as a 0-byte element type.
  if (!DataTypeIsValid(dt)) {
    return errors::InvalidArgument("'", a.name, "' is not a valid dtype (", static_cast<int>(dt),
                                   ")");
  }
  // An attr without a list takes any dtype rill computes with: complex64 tensors exist on
  // the host only, so no kernel ever sees one.
  if (a.allowed_types.empty()) {
    if (dt != DT_COMPLEX64) return absl::OkStatus();
    return errors::InvalidArgument("'", a.name,
                                   "' is complex64: rill has no kernels for complex numbers");
  }
  for (DataType t : a.allowed_types)
    if (t == dt) return absl::OkStatus();
  std::vector<std::string> names;
  for (DataType t : a.allowed_types) names.push_back(DataTypeString(t));
  return errors::InvalidArgument("dtype ", DataTypeString(dt), " is not supported for '", a.name,
                                 "'; allowed: ", absl::StrJoin(names, ", "));
}

// The length of input list `arg`, from input `next` on: the length an earlier list with
// its number attr set, else the inputs left up to the fixed ones after it, split evenly
// among it and the later lists that share its number attr. Sets the attr.
absl::StatusOr<int64_t> ListLength(const OpDef& def, const ArgDef& arg, NodeSpec& spec, size_t next,
                                   std::set<std::string>* counted) {
  if (counted->contains(arg.number_attr)) {
    return std::get<int64_t>(spec.attrs.at(arg.number_attr));
  }
  size_t fixed_after = 0, lists = 1;
  for (size_t j = &arg - def.inputs.data() + 1; j < def.inputs.size(); ++j) {
    ++(def.inputs[j].number_attr == arg.number_attr ? lists : fixed_after);
  }
  if (spec.inputs.size() < next + fixed_after) {
    return errors::InvalidArgument("too few inputs: ", spec.inputs.size());
  }
  const size_t left = spec.inputs.size() - next - fixed_after;
  if (left % lists != 0) {
    return errors::InvalidArgument("the ", lists, " input lists of length '", arg.number_attr,
                                   "' must be equally long; ", left, " inputs are left for them");
  }
  const int64_t count = static_cast<int64_t>(left / lists);
  if (count < arg.min_length) {
    return errors::InvalidArgument(
        "input list '", arg.name, "' ",
        count == 0 ? std::string("is empty") : absl::StrCat("has ", count, " inputs"),
        "; it takes at least ", arg.min_length);
  }
  // A length given as well must agree (TensorFlow: "Inconsistent values for attr 'N'").
  if (auto it = spec.attrs.find(arg.number_attr); it != spec.attrs.end()) {
    const int64_t* given = std::get_if<int64_t>(&it->second);
    if (given != nullptr && *given != count) {
      return errors::InvalidArgument("attr '", arg.number_attr, "' is ", *given,
                                     " but input list '", arg.name, "' has ", count, " inputs");
    }
  }
  spec.attrs[arg.number_attr] = count;
  counted->insert(arg.number_attr);
  return count;
}

}  // namespace

absl::Status Graph::ResolveTypes(const OpDef& def, NodeSpec& spec, std::vector<bool>* refs,
                                 std::vector<DataType>* outputs) const {
  size_t next = 0;
  std::set<std::string> lists_counted;  // number attrs an earlier list has set
  for (const ArgDef& arg : def.inputs) {
    if (!arg.type_list_attr.empty()) {
      RILL_RETURN_IF_ERROR(ResolveInputTypeList(def, arg, spec, &next, refs));
      continue;
    }
    int64_t count = 1;
    if (!arg.number_attr.empty()) {
      RILL_ASSIGN_OR_RETURN(count, ListLength(def, arg, spec, next, &lists_counted));
    }
    for (int64_t k = 0; k < count; ++k, ++next) {
      if (next >= spec.inputs.size()) {
        return errors::InvalidArgument("expected ", def.inputs.size(), " inputs, got ",
                                       spec.inputs.size());
      }
      NodeOut in = spec.inputs[next];
      DataType got = in.node->output_type(in.index);
      const auto& from = in.node->op_def().outputs;  // a list output is never a ref
      if (arg.is_ref && (static_cast<size_t>(in.index) >= from.size() || !from[in.index].is_ref)) {
        return errors::InvalidArgument("input '", arg.name, "' must be a variable, got ",
                                       in.node->DebugName());
      }
      refs->push_back(arg.is_ref);
      if (arg.type != DT_INVALID) {
        if (got != arg.type) {
          return errors::InvalidArgument("input '", arg.name, "' must be ",
                                         DataTypeString(arg.type), ", got ", DataTypeString(got),
                                         " from '", in.node->name(), "'");
        }
        continue;
      }
      auto it = spec.attrs.find(arg.type_attr);
      if (it == spec.attrs.end()) {
        spec.attrs[arg.type_attr] = got;
      } else if (std::get<DataType>(it->second) != got) {
        return errors::InvalidArgument("input '", arg.name, "' has dtype ", DataTypeString(got),
                                       " (from '", in.node->name(), "') but '", arg.type_attr,
                                       "' is ", DataTypeString(std::get<DataType>(it->second)),
                                       "; all inputs of type '", arg.type_attr, "' must agree");
      }
    }
  }
  if (next != spec.inputs.size()) {
    return errors::InvalidArgument("expected ", next, " inputs, got ", spec.inputs.size());
  }
  // Defaults last, so that a type attr bound by an input is not pre-empted by its default.
  for (const AttrDef& a : def.attrs) {
    if (!spec.attrs.contains(a.name) && a.default_value) spec.attrs[a.name] = *a.default_value;
  }
  for (const AttrDef& a : def.attrs) {
    auto it = spec.attrs.find(a.name);
    if (it == spec.attrs.end()) {
      return errors::InvalidArgument("missing required attribute '", a.name, "' (",
                                     AttrKindName(a.kind), ")");
    }
    if (a.kind == AttrKind::kType)
      RILL_RETURN_IF_ERROR(CheckAllowed(a, std::get<DataType>(it->second)));
  }
  for (const ArgDef& arg : def.outputs) {
    if (!arg.type_list_attr.empty()) {
      const auto& list = std::get<std::vector<DataType>>(spec.attrs.at(arg.type_list_attr));
      outputs->insert(outputs->end(), list.begin(), list.end());
      continue;
    }
    int64_t count = 1;
    if (!arg.number_attr.empty()) {
      count = std::get<int64_t>(spec.attrs.at(arg.number_attr));
      if (count < 0 || count > kMaxOutputListLength) {
        return errors::InvalidArgument("'", arg.number_attr, "' is ", count,
                                       "; an output list has 0 to ", kMaxOutputListLength,
                                       " outputs");
      }
    }
    const DataType dt =
        arg.type != DT_INVALID ? arg.type : std::get<DataType>(spec.attrs.at(arg.type_attr));
    outputs->insert(outputs->end(), count, dt);
  }
  return absl::OkStatus();
}

absl::StatusOr<Node*> Graph::AddNode(NodeSpec spec) {
  const OpDef* def = OpRegistry::Global()->LookUp(spec.op);
  std::string where = absl::StrCat("node '", spec.name, "' (", spec.op, "): ");
  if (def == nullptr) {
    return errors::NotFound(where, "no op named '", spec.op, "' is registered");
  }
  if (!ValidNodeName(spec.name)) {
    return errors::InvalidArgument(where, "invalid node name; use letters, digits and _ . - /");
  }
  for (const NodeOut& in : spec.inputs) {
    if (in.node == nullptr || in.index < 0 || in.index >= in.node->num_outputs()) {
      return errors::InvalidArgument(where, "an input refers to a missing output");
    }
    if (FindNode(in.node->name()) != in.node) {
      return errors::InvalidArgument(where, "input '", in.node->name(),
                                     "' belongs to another graph");
    }
  }
  for (Node* c : spec.control_inputs) {
    if (c == nullptr || FindNode(c->name()) != c) {
      return errors::InvalidArgument(where, "a control input is not a node of this graph");
    }
  }
  if (auto d = DeviceName::Parse(spec.device); !d.ok()) {
    return errors::Annotate(d.status(), where);
  }
  if (!spec.colocate_with.empty() && FindNode(spec.colocate_with) == nullptr) {
    return errors::InvalidArgument(where, "colocation with unknown node '", spec.colocate_with,
                                   "'");
  }
  RILL_RETURN_IF_ERROR(errors::Annotate(CheckAttrs(*def, spec.attrs), where));
  for (auto& [name, value] : spec.attrs) {  // a Slice may not be aligned; kernels need it
    if (auto* t = std::get_if<Tensor>(&value)) *t = t->AlignedForKernels();
  }

  auto node = std::make_unique<Node>();
  RILL_RETURN_IF_ERROR(errors::Annotate(
      ResolveTypes(*def, spec, &node->input_is_ref_, &node->output_types_), where));

  std::vector<InferenceContext::InputInfo> infos;
  for (const NodeOut& in : spec.inputs) {
    infos.push_back({in.node->output_type(in.index), in.node->output_shape(in.index),
                     in.node->constant_value()});
  }
  InferenceContext ctx(*def, spec.attrs, std::move(infos),
                       static_cast<int>(node->output_types_.size()));
  if (def->shape_fn) RILL_RETURN_IF_ERROR(errors::Annotate(def->shape_fn(ctx), where));

  node->name_ = std::move(spec.name);
  node->op_def_ = def;
  node->attrs_ = std::move(spec.attrs);
  node->inputs_ = std::move(spec.inputs);
  node->control_inputs_ = std::move(spec.control_inputs);
  node->output_shapes_ = ctx.outputs();
  node->device_ = std::move(spec.device);
  node->colocate_with_ = std::move(spec.colocate_with);

  std::lock_guard<std::mutex> lock(mu_);
  if (by_name_.contains(node->name_)) {
    return errors::AlreadyExists(where, "a node with this name already exists");
  }
  node->id_ = static_cast<int>(nodes_.size());
  node->graph_ = this;
  Node* raw = node.get();
  by_name_[raw->name_] = raw;
  nodes_.push_back(std::move(node));
  return raw;
}

Node* Graph::FindNode(absl::string_view name) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

int Graph::num_nodes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(nodes_.size());
}

Node* Graph::node(int id) const {
  std::lock_guard<std::mutex> lock(mu_);
  return id >= 0 && id < static_cast<int>(nodes_.size()) ? nodes_[id].get() : nullptr;
}

void Graph::AddInitializer(Node* assign) {
  std::lock_guard<std::mutex> lock(mu_);
  initializers_.push_back(assign);
}

std::vector<Node*> Graph::initializers() const {
  std::lock_guard<std::mutex> lock(mu_);
  return initializers_;
}

}  // namespace rill
