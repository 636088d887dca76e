// Attribute values carried by graph nodes (transpose_a, keep_dims, dtype, shape, ...).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "rill/core/tensor.h"
#include "rill/core/tensor_shape.h"
#include "rill/core/types.h"

namespace rill {

// A graph with arguments and return values held by a node (If's branches, While's body):
// core/function.h.
class Function;
using FunctionRef = std::shared_ptr<const Function>;

using AttrValue = std::variant<int64_t, float, bool, DataType, std::string, std::vector<int64_t>,
                               PartialTensorShape, Tensor, std::vector<DataType>, FunctionRef,
                               std::vector<float>, std::vector<std::string>>;
using AttrMap = std::map<std::string, AttrValue>;

enum class AttrKind {
  kInt,
  kFloat,
  kBool,
  kType,
  kString,
  kIntList,
  kShape,
  kTensor,
  kTypeList,
  kFunc,
  kFloatList,
  kStringList
};

std::string AttrKindName(AttrKind k);
AttrKind KindOf(const AttrValue& v);
std::string AttrValueDebugString(const AttrValue& v);

// TensorFlow's GetNodeAttr: the attr `name` of `attrs` into *value; NotFound when absent,
// InvalidArgument when it holds another kind (or an int that does not fit an int, a
// shape that is not fully known for a TensorShape).
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, int64_t* value);
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, int32_t* value);
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, float* value);
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, bool* value);
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, DataType* value);
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, std::string* value);
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, std::vector<int64_t>* value);
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, std::vector<float>* value);
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name,
                         std::vector<std::string>* value);
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, PartialTensorShape* value);
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, TensorShape* value);
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, Tensor* value);
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name,
                         std::vector<DataType>* value);
// InvalidArgument also for an attr that holds no function (a null FunctionRef).
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, FunctionRef* value);

// The attr `name` when `attrs` holds it as a T, else `dflt` (for checks that run on a node
// the registry filled with its op's defaults, and on attrs that may lack them).
template <typename T>
T GetNodeAttrOr(const AttrMap& attrs, absl::string_view name, T dflt) {
  T v;
  return GetNodeAttr(attrs, name, &v).ok() ? v : dflt;
}

}  // namespace rill
