// TensorFlow's NodeDefBuilder and FakeInput (framework/node_def_builder.h, fake_input.h)
// for kernel tests (runtime/testing/ops_testutil.h): one node described by its op, its
// attributes and its inputs' dtypes, before any graph holds it.
//   NodeDef def;
//   ASSERT_TRUE(NodeDefBuilder("mm", "MatMul")
//                   .Input(FakeInput(DT_FLOAT))
//                   .Input(FakeInput(DT_FLOAT))
//                   .Attr("transpose_a", true)
//                   .Finalize(&def).ok());
// FakeInput() takes its dtype from the op: a fixed dtype, the type attribute when set
// (.Attr("T", DT_FLOAT)) or its default; FakeInput(n, dtype) is a list of n inputs (a
// list's length may come from its number attribute instead, .Attr("N", 3)). A fake input
// of argument k is named as TensorFlow names it: "a" for the first argument, "b", ...
// Real inputs name their node, for a node added to a GraphDef:
//   NodeDefBuilder("bn", "_FusedBatchNormEx").Input({"x", 0, DT_FLOAT}) ... .Input(side_inputs)
// (a std::vector<NodeDefBuilder::NodeOut> for a list argument, possibly empty).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "rill/core/attr_value.h"
#include "rill/core/op_registry.h"
#include "rill/runtime/io/node_def.h"

namespace rill {

// TensorFlow's ref dtypes (a dtype plus 100: DT_FLOAT_REF is a float variable itself, not
// its value), as its tests give them to FakeInput for an op's ref inputs. rill marks ref
// inputs in the op's schema instead, so these exist for FakeInput alone: a plain dtype
// for a ref input does as well, and a ref dtype for an input that takes a value feeds it
// from a variable.
inline constexpr int kDataTypeRefOffset = 100;
inline constexpr DataType MakeRefType(DataType dt) {
  return static_cast<DataType>(dt + kDataTypeRefOffset);
}
inline constexpr bool IsRefType(DataType dt) { return dt > kDataTypeRefOffset; }
inline constexpr DataType RemoveRefType(DataType dt) {
  return IsRefType(dt) ? static_cast<DataType>(dt - kDataTypeRefOffset) : dt;
}
inline constexpr DataType DT_FLOAT_REF = MakeRefType(DT_FLOAT);
inline constexpr DataType DT_DOUBLE_REF = MakeRefType(DT_DOUBLE);
inline constexpr DataType DT_INT32_REF = MakeRefType(DT_INT32);
inline constexpr DataType DT_UINT8_REF = MakeRefType(DT_UINT8);
inline constexpr DataType DT_INT64_REF = MakeRefType(DT_INT64);
inline constexpr DataType DT_BOOL_REF = MakeRefType(DT_BOOL);

// What one input argument of the op gets: a dtype (DT_INVALID: the op's), a count for a
// list (-1: the op's number attribute), or the dtypes of a list one by one.
struct FakeInputSpec {
  int n = -1;
  DataType dtype = DT_INVALID;
  std::vector<DataType> dtypes;
};
inline FakeInputSpec FakeInput(DataType dtype = DT_INVALID) { return {-1, dtype, {}}; }
inline FakeInputSpec FakeInput(int n) { return {n, DT_INVALID, {}}; }
inline FakeInputSpec FakeInput(int n, DataType dtype) { return {n, dtype, {}}; }
inline FakeInputSpec FakeInput(std::vector<DataType> dtypes) {
  return {static_cast<int>(dtypes.size()), DT_INVALID, std::move(dtypes)};
}
inline FakeInputSpec FakeInput(std::initializer_list<DataType> dtypes) {
  return FakeInput(std::vector<DataType>(dtypes));
}

// TensorFlow's GetNodeAttr(node_def, name, &value), over the NodeDef's attributes (every
// one the op has once Finalize ran: set, implied by the inputs, or defaulted).
template <typename T>
absl::Status GetNodeAttr(const NodeDef& def, absl::string_view name, T* value) {
  return GetNodeAttr(def.attr(), name, value);
}

class NodeDefBuilder {
 public:
  // One output of a node by name, with its dtype (TensorFlow's NodeDefBuilder::NodeOut).
  struct NodeOut {
    std::string node;
    int index = 0;
    DataType data_type = DT_INVALID;
  };

 private:
  // One input argument: fake inputs, or real ones by name.
  struct ArgInput {
    FakeInputSpec fake;
    bool real = false;
    std::vector<NodeOut> srcs;
  };

 public:
  NodeDefBuilder(std::string name, std::string op) : name_(std::move(name)), op_(std::move(op)) {}

  NodeDefBuilder& Input(FakeInputSpec in) {
    inputs_.push_back({std::move(in), false, {}});
    return *this;
  }
  NodeDefBuilder& Input(NodeOut src) {
    inputs_.push_back({{}, true, {std::move(src)}});
    return *this;
  }
  NodeDefBuilder& Input(std::string node, int index, DataType dtype) {
    return Input(NodeOut{std::move(node), index, dtype});
  }
  // A list argument's inputs, in order.
  NodeDefBuilder& Input(std::vector<NodeOut> srcs) {
    inputs_.push_back({{}, true, std::move(srcs)});
    return *this;
  }
  NodeDefBuilder& Device(std::string device) {
    device_ = std::move(device);
    return *this;
  }
  NodeDefBuilder& Attr(const std::string& name, AttrValue v) {
    attrs_[name] = std::move(v);
    return *this;
  }
  // The forms TensorFlow's tests write, which the variant would not take or would take
  // as another kind (a bool as an int, a double, a braced list of ints).
  NodeDefBuilder& Attr(const std::string& name, bool v) { return Attr(name, AttrValue(v)); }
  template <typename I,
            std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
  NodeDefBuilder& Attr(const std::string& name, I v) {  // int, int64, size_t, ...: an int attr
    return Attr(name, AttrValue(static_cast<int64_t>(v)));
  }
  NodeDefBuilder& Attr(const std::string& name, float v) { return Attr(name, AttrValue(v)); }
  NodeDefBuilder& Attr(const std::string& name, double v) {
    return Attr(name, AttrValue(static_cast<float>(v)));
  }
  NodeDefBuilder& Attr(const std::string& name, DataType v) { return Attr(name, AttrValue(v)); }
  NodeDefBuilder& Attr(const std::string& name, const char* v) {
    return Attr(name, AttrValue(std::string(v)));
  }
  NodeDefBuilder& Attr(const std::string& name, const TensorShape& v) {
    return Attr(name, AttrValue(PartialTensorShape(v)));
  }
  NodeDefBuilder& Attr(const std::string& name, std::initializer_list<int> v) {
    return Attr(name, AttrValue(std::vector<int64_t>(v.begin(), v.end())));
  }
  NodeDefBuilder& Attr(const std::string& name, const std::vector<int>& v) {
    return Attr(name, AttrValue(std::vector<int64_t>(v.begin(), v.end())));
  }
  NodeDefBuilder& Attr(const std::string& name, std::initializer_list<float> v) {
    return Attr(name, AttrValue(std::vector<float>(v)));
  }
  NodeDefBuilder& Attr(const std::string& name, std::initializer_list<DataType> v) {
    return Attr(name, AttrValue(std::vector<DataType>(v)));
  }
  NodeDefBuilder& Attr(const std::string& name, std::initializer_list<std::string> v) {
    return Attr(name, AttrValue(std::vector<std::string>(v)));
  }

  // *def = the node, each FakeInput resolved against the op's arguments, with every
  // attribute: those set, those the inputs imply (T, N) and the op's defaults. NotFound for
  // an unknown op; InvalidArgument for an attribute the op does not have, a count of
  // inputs other than its arguments', or a dtype or list length nothing gives.
  absl::Status Finalize(NodeDef* def) const {
    const OpDef* op = OpRegistry::Global()->LookUp(op_);
    if (op == nullptr) return absl::NotFoundError(absl::StrCat(Who(), ": op is not registered"));
    for (const auto& [attr, value] : attrs_) {
      if (op->FindAttr(attr) == nullptr) {
        return absl::InvalidArgumentError(
            absl::StrCat(Who(), ": the op has no attribute '", attr, "'"));
      }
    }
    if (inputs_.size() != op->inputs.size()) {
      std::vector<std::string> names;
      for (const ArgDef& a : op->inputs) names.push_back(a.name);
      return absl::InvalidArgumentError(
          absl::StrCat(Who(), " takes ", op->inputs.size(), " input arguments (",
                       absl::StrJoin(names, ", "), "); ", inputs_.size(), " given"));
    }
    NodeDef out;
    out.set_name(name_);
    out.set_op(op_);
    out.set_device(device_);
    *out.mutable_attr() = attrs_;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      RILL_RETURN_IF_ERROR(Resolve(*op, i, inputs_[i], &out));
    }
    for (const AttrDef& a : op->attrs) {  // and the defaults, as TensorFlow's Finalize adds
      if (a.default_value.has_value()) out.mutable_attr()->emplace(a.name, *a.default_value);
    }
    *def = std::move(out);
    return absl::OkStatus();
  }

 private:
  std::string Who() const { return absl::StrCat("NodeDefBuilder: node '", name_, "' (", op_, ")"); }

  // An attribute of the builder's, else the op's default, else nullptr.
  const AttrValue* AttrOrDefault(const OpDef& op, const std::string& name) const {
    if (auto it = attrs_.find(name); it != attrs_.end()) return &it->second;
    const AttrDef* a = op.FindAttr(name);
    return a != nullptr && a->default_value.has_value() ? &*a->default_value : nullptr;
  }

  // Appends argument `arg`'s inputs as `in` gives them.
  absl::Status Resolve(const OpDef& op, size_t k, const ArgInput& in, NodeDef* def) const {
    const ArgDef& arg = op.inputs[k];
    std::vector<DataType> dtypes;
    std::vector<std::string> names;
    if (in.real) {
      if (arg.number_attr.empty() && arg.type_list_attr.empty() && in.srcs.size() != 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            Who(), ": input '", arg.name, "' is not a list; ", in.srcs.size(), " inputs given"));
      }
      for (const NodeOut& src : in.srcs) {
        dtypes.push_back(src.data_type);
        names.push_back(src.index == 0 ? src.node : absl::StrCat(src.node, ":", src.index));
      }
    } else {
      RILL_RETURN_IF_ERROR(FakeTypes(op, arg, in.fake, &dtypes));
      // TensorFlow's fake node names: one letter per argument, a list's items its outputs.
      const std::string node(1, static_cast<char>('a' + k % 26));
      for (size_t i = 0; i < dtypes.size(); ++i) {
        names.push_back(i == 0 ? node : absl::StrCat(node, ":", i));
      }
    }
    for (size_t i = 0; i < dtypes.size(); ++i) {
      const DataType dt = dtypes[i];
      if (dt == DT_INVALID) {
        return absl::InvalidArgumentError(
            absl::StrCat(Who(), ": no dtype for input '", arg.name, "': give FakeInput(dtype)"));
      }
      // A ref dtype for an input that takes a value: a variable whose value the op reads,
      // as TensorFlow takes it (its TypesCompatible: a ref's base type matches).
      def->add_input(names[i], RemoveRefType(dt), arg.is_ref || IsRefType(dt));
    }
    RecordArgAttrs(arg, dtypes, def);
    return absl::OkStatus();
  }

  // The dtypes of a fake argument's inputs.
  absl::Status FakeTypes(const OpDef& op, const ArgDef& arg, const FakeInputSpec& in,
                         std::vector<DataType>* out) const {
    std::vector<DataType> dtypes = in.dtypes;
    if (dtypes.empty()) {
      int n = 1;
      if (!arg.number_attr.empty() || !arg.type_list_attr.empty()) {
        RILL_RETURN_IF_ERROR(ListLength(op, arg, in, &n));
      }
      DataType dt = in.dtype;
      if (dt == DT_INVALID) RILL_RETURN_IF_ERROR(ArgType(op, arg, &dt));
      dtypes.assign(static_cast<size_t>(n), dt);
      const AttrValue* list =
          arg.type_list_attr.empty() ? nullptr : AttrOrDefault(op, arg.type_list_attr);
      if (dt == DT_INVALID && list != nullptr &&
          std::holds_alternative<std::vector<DataType>>(*list)) {
        dtypes = std::get<std::vector<DataType>>(*list);
      }
    }
    *out = std::move(dtypes);
    return absl::OkStatus();
  }

  // The attributes an argument's inputs imply, as TensorFlow's Finalize sets them (where
  // the builder did not): its type attribute, a list's length, a type list's dtypes.
  static void RecordArgAttrs(const ArgDef& arg, const std::vector<DataType>& dtypes, NodeDef* def) {
    AttrMap& attrs = *def->mutable_attr();
    std::vector<DataType> plain;
    for (DataType dt : dtypes) plain.push_back(RemoveRefType(dt));
    if (!arg.type_list_attr.empty()) {
      attrs.emplace(arg.type_list_attr, plain);
      return;
    }
    if (!arg.number_attr.empty())
      attrs.emplace(arg.number_attr, int64_t{static_cast<int64_t>(plain.size())});
    if (!arg.type_attr.empty() && !plain.empty()) attrs.emplace(arg.type_attr, plain[0]);
  }

  absl::Status ListLength(const OpDef& op, const ArgDef& arg, const FakeInputSpec& in,
                          int* n) const {
    if (in.n >= 0) {
      *n = in.n;
      return absl::OkStatus();
    }
    const std::string& attr = arg.number_attr.empty() ? arg.type_list_attr : arg.number_attr;
    const AttrValue* v = AttrOrDefault(op, attr);
    if (v != nullptr && std::holds_alternative<int64_t>(*v)) {
      *n = static_cast<int>(std::get<int64_t>(*v));
      return absl::OkStatus();
    }
    if (v != nullptr && std::holds_alternative<std::vector<DataType>>(*v)) {
      *n = static_cast<int>(std::get<std::vector<DataType>>(*v).size());
      return absl::OkStatus();
    }
    return absl::InvalidArgumentError(absl::StrCat(Who(), ": input '", arg.name,
                                                   "' is a list: give its length (FakeInput(n, "
                                                   "dtype)) or the attribute '",
                                                   attr, "'"));
  }

  absl::Status ArgType(const OpDef& op, const ArgDef& arg, DataType* dt) const {
    if (arg.type != DT_INVALID) {
      *dt = arg.type;
      return absl::OkStatus();
    }
    const AttrValue* v = arg.type_attr.empty() ? nullptr : AttrOrDefault(op, arg.type_attr);
    if (v != nullptr && std::holds_alternative<DataType>(*v)) {
      *dt = std::get<DataType>(*v);
      return absl::OkStatus();
    }
    if (!arg.type_list_attr.empty()) {  // a type list given by its attribute alone
      *dt = DT_INVALID;
      return absl::OkStatus();
    }
    return absl::InvalidArgumentError(absl::StrCat(Who(), ": no dtype for input '", arg.name,
                                                   "': give FakeInput(dtype) or the attribute '",
                                                   arg.type_attr, "'"));
  }

  std::string name_, op_, device_;
  AttrMap attrs_;
  std::vector<ArgInput> inputs_;
};

}  // namespace rill
