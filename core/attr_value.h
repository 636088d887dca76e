// Attribute values carried by graph nodes (transpose_a, keep_dims, dtype, shape, ...).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "rill/core/tensor.h"
#include "rill/core/tensor_shape.h"
#include "rill/core/types.h"

namespace rill {

using AttrValue = std::variant<int64_t, float, bool, DataType, std::string, std::vector<int64_t>,
                               PartialTensorShape, Tensor>;
using AttrMap = std::map<std::string, AttrValue>;

enum class AttrKind { kInt, kFloat, kBool, kType, kString, kIntList, kShape, kTensor };

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
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, PartialTensorShape* value);
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, TensorShape* value);
absl::Status GetNodeAttr(const AttrMap& attrs, absl::string_view name, Tensor* value);

}  // namespace rill
