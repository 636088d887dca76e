// The op registry: each op's schema (inputs, outputs, attributes) and its shape function,
// registered once per op with RILL_REGISTER_OP. Kernels live elsewhere (kernel.h).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "rill/core/attr_value.h"
#include "rill/core/status.h"

namespace rill {

class InferenceContext;
using ShapeFn = std::function<absl::Status(InferenceContext&)>;

struct ArgDef {
  std::string name;
  DataType type = DT_INVALID;  // fixed dtype, or
  std::string type_attr;       // the attr that names it ("T")
  std::string number_attr;     // a list of N inputs ("N"); empty for a single one
  bool is_ref = false;         // the input is a variable itself, not its value
  // A list of any length whose dtypes are the list(type) attr it names ("Tin": If's
  // inputs, which may differ from one another); empty for other args.
  std::string type_list_attr = "";
  // A list's fewest inputs (TensorFlow's `N: int >= 0`): 1 unless the op allows none.
  int64_t min_length = 1;
};

struct AttrDef {
  std::string name;
  AttrKind kind;
  std::optional<AttrValue> default_value;
  std::vector<DataType> allowed_types;  // for kType; empty = any
};

struct OpDef {
  std::string name;
  std::vector<ArgDef> inputs;
  std::vector<ArgDef> outputs;
  std::vector<AttrDef> attrs;
  ShapeFn shape_fn;
  bool is_stateful = false;  // never merged or folded; variables, random ops

  const AttrDef* FindAttr(absl::string_view attr) const;
};

class OpRegistry {
 public:
  static OpRegistry* Global();
  void Register(OpDef def);
  const OpDef* LookUp(absl::string_view op) const;  // nullptr when unknown
  std::vector<std::string> ListOps() const;

 private:
  absl::flat_hash_map<std::string, std::unique_ptr<OpDef>> ops_;
};

class OpDefBuilder {
 public:
  explicit OpDefBuilder(std::string name) { def_.name = std::move(name); }
  OpDefBuilder& Input(std::string name, std::string type_attr);
  OpDefBuilder& Input(std::string name, DataType type);
  OpDefBuilder& InputList(std::string name, std::string number_attr, std::string type_attr,
                          int64_t min_length = 1);
  // A list of inputs of one fixed dtype. Lists that share a number attr (DynamicStitch's
  // indices and data) have equal lengths: the inputs left for them are split evenly.
  OpDefBuilder& InputList(std::string name, std::string number_attr, DataType type);
  OpDefBuilder& RefInput(std::string name, std::string type_attr);
  OpDefBuilder& Output(std::string name, std::string type_attr);
  OpDefBuilder& Output(std::string name, DataType type);
  OpDefBuilder& RefOutput(std::string name, std::string type_attr);
  // A list of outputs whose length is the int attr `number_attr` (Unpack's "num", Split's
  // "num_split"), at most kMaxOutputListLength.
  OpDefBuilder& OutputList(std::string name, std::string number_attr, std::string type_attr);
  // The same of one fixed dtype (SparseSplit's int64 index lists).
  OpDefBuilder& OutputList(std::string name, std::string number_attr, DataType type);
  // Lists whose dtypes are a list(type) attr (declared with Attr(attr, kTypeList)): an input
  // list takes every input up to the fixed ones after it (possibly none) and sets the attr
  // from their dtypes (or must match it); an output list has one output per listed dtype.
  OpDefBuilder& InputTypeList(std::string name, std::string type_list_attr);
  OpDefBuilder& OutputTypeList(std::string name, std::string type_list_attr);
  OpDefBuilder& TypeAttr(std::string name, std::vector<DataType> allowed = {});
  OpDefBuilder& TypeAttr(std::string name, std::vector<DataType> allowed, DataType dflt);
  OpDefBuilder& Attr(std::string name, AttrKind kind);  // required
  OpDefBuilder& Attr(std::string name, AttrKind kind, AttrValue dflt);
  OpDefBuilder& SetShapeFn(ShapeFn fn);
  OpDefBuilder& SetIsStateful();
  // Adds what several ops declare alike (StridedSlice's and StridedSliceGrad's masks).
  OpDefBuilder& Apply(void (*add)(OpDefBuilder&)) {
    add(*this);
    return *this;
  }
  OpDef Build() && { return std::move(def_); }

 private:
  OpDef def_;
};

struct OpRegistration {
  OpRegistration(OpDefBuilder& b) {
    OpRegistry::Global()->Register(std::move(b).Build());
  }  // NOLINT
  OpRegistration(OpDefBuilder&& b) {
    OpRegistry::Global()->Register(std::move(b).Build());
  }  // NOLINT
};

#define RILL_REGISTER_OP(name)                                                   \
  static ::rill::OpRegistration RILL_CONCAT_(rill_op_registration_, __COUNTER__) \
      [[maybe_unused]] = ::rill::OpDefBuilder(name)

// The longest output list a node may declare: each output costs the graph a slot, so an
// attr of 10^12 must be refused before anything is sized by it.
inline constexpr int64_t kMaxOutputListLength = 1 << 16;

// Dtype sets used by many ops.
// TensorFlow's integer widths all appear where it takes them (its REAL_NUMBER_TYPES);
// kernels follow through RILL_FOR_NUMBER_TYPES (core/kernel.h). GPU kernels cover fewer.
inline const std::vector<DataType> kAllTypes = {DT_FLOAT,  DT_DOUBLE, DT_INT32, DT_INT64,
                                                DT_UINT8,  DT_BOOL,   DT_INT8,  DT_INT16,
                                                DT_UINT16, DT_UINT32, DT_UINT64};
inline const std::vector<DataType> kNumberTypes = {DT_FLOAT,  DT_DOUBLE, DT_INT32, DT_INT64,
                                                   DT_UINT8,  DT_INT8,   DT_INT16, DT_UINT16,
                                                   DT_UINT32, DT_UINT64};
inline const std::vector<DataType> kSignedNumberTypes = {DT_FLOAT, DT_DOUBLE, DT_INT32,
                                                         DT_INT64, DT_INT8,   DT_INT16};
inline const std::vector<DataType> kFloatTypes = {DT_FLOAT, DT_DOUBLE};
inline const std::vector<DataType> kIndexTypes = {DT_INT32, DT_INT64};

}  // namespace rill
