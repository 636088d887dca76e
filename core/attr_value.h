// Attribute values carried by graph nodes (transpose_a, keep_dims, dtype, shape, ...).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

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

}  // namespace rill
