#include "rill/core/attr_value.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

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
  }
  return "?";
}

AttrKind KindOf(const AttrValue& v) {
  static constexpr AttrKind kinds[] = {AttrKind::kInt,   AttrKind::kFloat,  AttrKind::kBool,
                                       AttrKind::kType,  AttrKind::kString, AttrKind::kIntList,
                                       AttrKind::kShape, AttrKind::kTensor};
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
        else if constexpr (std::is_same_v<X, std::vector<int64_t>>)
          return absl::StrCat("[", absl::StrJoin(x, ","), "]");
        else if constexpr (std::is_same_v<X, PartialTensorShape>)
          return x.DebugString();
        else if constexpr (std::is_same_v<X, Tensor>)
          return x.DebugString();
        else
          return absl::StrCat(x);
      },
      v);
}

}  // namespace rill
