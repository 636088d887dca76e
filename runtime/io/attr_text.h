// Attribute values in graph files: one field per value, named by its kind.
//   i: 3          f: 0.5        b: true       type: float     s: "SAME"
//   list: [1, 0]  floats: [1, 1.5]  strings: ["BiasAdd", "Relu"]
//   shape: [-1, 3] (shape: unknown for an unknown rank)
//   tensor { dtype: float shape: [2] values: [1, 2] }   types: [float, int32]
//   func: "name" (a function of the file's library; runtime/io/graph_io.cc reads and
//   writes those)
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "rill/core/attr_value.h"
#include "rill/runtime/io/text_format.h"

namespace rill {

// "i: 3", "tensor { ... }"; FailedPrecondition for a tensor that is not on the host.
absl::StatusOr<std::string> AttrToText(const AttrValue& v);
absl::StatusOr<AttrValue> AttrFromText(const text::Field& f);

std::string ShapeToText(const PartialTensorShape& s);  // "[-1, 3]" or "unknown"
absl::StatusOr<PartialTensorShape> ShapeFromText(const text::Field& f);

}  // namespace rill
