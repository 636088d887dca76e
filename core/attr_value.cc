#include "rill/core/attr_value.h"

#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "rill/core/function.h"
#include "rill/core/status.h"

namespace rill {

std::string AttrKindName(AttrKind k) {
  switch (k) {
    case AttrKind::kInt:
      return "int";
    case AttrKind::kFloat:
      return "float";
    case AttrKind::kBool:
      return "bool";
    case AttrKind::kType:
      return "type";
    case AttrKind::kString:
      return "string";
    case AttrKind::kIntList:
      return "list(int)";
    case AttrKind::kShape:
      return "shape";
    case AttrKind::kTensor:
      return "tensor";
    case AttrKind::kTypeList:
      return "list(type)";
    case AttrKind::kFunc:
      return "func";
    case AttrKind::kFloatList:
      return "list(float)";
    case AttrKind::kStringList:
      return "list(string)";
  }
  return "?";
}

AttrKind KindOf(const AttrValue& v) {
  static constexpr AttrKind kinds[] = {
      AttrKind::kInt,      AttrKind::kFloat,   AttrKind::kBool,      AttrKind::kType,
      AttrKind::kString,   AttrKind::kIntList, AttrKind::kShape,     AttrKind::kTensor,
      AttrKind::kTypeList, AttrKind::kFunc,    AttrKind::kFloatList, AttrKind::kStringList};
  return kinds[v.index()];
}

std::string AttrValueDebugString(const AttrValue& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using X = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<X, bool>)
          return x ? "true" : "false";
        else if constexpr (std::is_same_v<X, DataType>)
          return DataTypeString(x);
        else if constexpr (std::is_same_v<X, std::string>)
          return absl::StrCat("\"", x, "\"");
        else if constexpr (std::is_same_v<X, std::vector<int64_t>> ||
                           std::is_same_v<X, std::vector<float>>)
          return absl::StrCat("[", absl::StrJoin(x, ","), "]");
        else if constexpr (std::is_same_v<X, PartialTensorShape>)
          return x.DebugString();
        else if constexpr (std::is_same_v<X, Tensor>)
          return x.DebugString();
        else if constexpr (std::is_same_v<X, std::vector<std::string>>) {
          std::vector<std::string> quoted;
          for (const std::string& s : x) quoted.push_back(absl::StrCat("\"", s, "\""));
          return absl::StrCat("[", absl::StrJoin(quoted, ","), "]");
        } else if constexpr (std::is_same_v<X, std::vector<DataType>>) {
          std::vector<std::string> names;
          for (DataType t : x) names.push_back(DataTypeString(t));
          return absl::StrCat("[", absl::StrJoin(names, ","), "]");
        } else if constexpr (std::is_same_v<X, FunctionRef>)
          return x == nullptr ? std::string("func(null)") : FunctionDebugName(*x);
        else
          return absl::StrCat(x);
      },
      v);
}

namespace {

// The attr as a T, or why not.
template <typename T>
absl::Status Fetch(const AttrMap& attrs, absl::string_view name, AttrKind kind, T* value) {
  const auto it = attrs.find(std::string(name));
  if (it == attrs.end()) return errors::NotFound("no attr named '", name, "'");
  const T* v = std::get_if<T>(&it->second);
  if (v == nullptr) {
    return errors::InvalidArgument("attr '", name, "' is a ", AttrKindName(KindOf(it->second)),
                                   ", not a ", AttrKindName(kind));
  }
  *value = *v;
  return absl::OkStatus();
}

}  // namespace

absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, int64_t* value) {
  return Fetch(attrs, name, AttrKind::kInt, value);
}
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, int32_t* value) {
  int64_t v = 0;
  RILL_RETURN_IF_ERROR(Fetch(attrs, name, AttrKind::kInt, &v));
  if (v < INT32_MIN || v > INT32_MAX) {
    return errors::InvalidArgument("attr '", name, "' is ", v, ", past an int32");
  }
  *value = static_cast<int32_t>(v);
  return absl::OkStatus();
}
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, float* value) {
  return Fetch(attrs, name, AttrKind::kFloat, value);
}
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, bool* value) {
  return Fetch(attrs, name, AttrKind::kBool, value);
}
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, DataType* value) {
  return Fetch(attrs, name, AttrKind::kType, value);
}
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, std::string* value) {
  return Fetch(attrs, name, AttrKind::kString, value);
}
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name,
                         std::vector<int64_t>* value) {
  return Fetch(attrs, name, AttrKind::kIntList, value);
}
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, std::vector<float>* value) {
  return Fetch(attrs, name, AttrKind::kFloatList, value);
}
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name,
                         std::vector<std::string>* value) {
  return Fetch(attrs, name, AttrKind::kStringList, value);
}
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, PartialTensorShape* value) {
  return Fetch(attrs, name, AttrKind::kShape, value);
}
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, TensorShape* value) {
  PartialTensorShape p;
  RILL_RETURN_IF_ERROR(Fetch(attrs, name, AttrKind::kShape, &p));
  if (!p.IsFullyDefined()) {
    return errors::InvalidArgument("attr '", name, "' is the partly known shape ", p.DebugString());
  }
  *value = TensorShape(p.dim_sizes());
  return absl::OkStatus();
}
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, Tensor* value) {
  return Fetch(attrs, name, AttrKind::kTensor, value);
}
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name,
                         std::vector<DataType>* value) {
  return Fetch(attrs, name, AttrKind::kTypeList, value);
}
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, FunctionRef* value) {
  RILL_RETURN_IF_ERROR(Fetch(attrs, name, AttrKind::kFunc, value));
  if (*value == nullptr) return errors::InvalidArgument("attr '", name, "' holds no function");
  return absl::OkStatus();
}

}  // namespace rill
