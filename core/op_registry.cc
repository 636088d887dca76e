#include "rill/core/op_registry.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"

namespace rill {

const AttrDef* OpDef::FindAttr(absl::string_view attr) const {
  for (const AttrDef& a : attrs)
    if (a.name == attr) return &a;
  return nullptr;
}

OpRegistry* OpRegistry::Global() {
  static OpRegistry* r = new OpRegistry;
  return r;
}

void OpRegistry::Register(OpDef def) {
  // Registration happens at static-initialisation time from our own sources; a duplicate
  // is a programming error in rill, never user input.
  if (ops_.contains(def.name)) {
    std::fprintf(stderr, "rill: op %s registered twice\n", def.name.c_str());
    std::abort();
  }
  std::string name = def.name;
  ops_[name] = std::make_unique<OpDef>(std::move(def));
}

const OpDef* OpRegistry::LookUp(absl::string_view op) const {
  auto it = ops_.find(op);
  return it == ops_.end() ? nullptr : it->second.get();
}

std::vector<std::string> OpRegistry::ListOps() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : ops_) out.push_back(k);
  std::sort(out.begin(), out.end());
  return out;
}

OpDefBuilder& OpDefBuilder::Input(std::string name, std::string type_attr) {
  def_.inputs.push_back({std::move(name), DT_INVALID, std::move(type_attr), "", false});
  return *this;
}
OpDefBuilder& OpDefBuilder::Input(std::string name, DataType type) {
  def_.inputs.push_back({std::move(name), type, "", "", false});
  return *this;
}
OpDefBuilder& OpDefBuilder::InputList(std::string name, std::string number_attr,
                                      std::string type_attr, int64_t min_length) {
  def_.inputs.push_back(
      {std::move(name), DT_INVALID, std::move(type_attr), std::move(number_attr), false});
  def_.inputs.back().min_length = min_length;
  return *this;
}
OpDefBuilder& OpDefBuilder::InputList(std::string name, std::string number_attr, DataType type) {
  def_.inputs.push_back({std::move(name), type, "", std::move(number_attr), false});
  return *this;
}
OpDefBuilder& OpDefBuilder::RefInput(std::string name, std::string type_attr) {
  def_.inputs.push_back({std::move(name), DT_INVALID, std::move(type_attr), "", true});
  return *this;
}
OpDefBuilder& OpDefBuilder::Output(std::string name, std::string type_attr) {
  def_.outputs.push_back({std::move(name), DT_INVALID, std::move(type_attr), "", false});
  return *this;
}
OpDefBuilder& OpDefBuilder::Output(std::string name, DataType type) {
  def_.outputs.push_back({std::move(name), type, "", "", false});
  return *this;
}
OpDefBuilder& OpDefBuilder::RefOutput(std::string name, std::string type_attr) {
  def_.outputs.push_back({std::move(name), DT_INVALID, std::move(type_attr), "", true});
  return *this;
}
OpDefBuilder& OpDefBuilder::OutputList(std::string name, std::string number_attr,
                                       std::string type_attr) {
  def_.outputs.push_back(
      {std::move(name), DT_INVALID, std::move(type_attr), std::move(number_attr), false});
  return *this;
}
OpDefBuilder& OpDefBuilder::OutputList(std::string name, std::string number_attr, DataType type) {
  def_.outputs.push_back({std::move(name), type, "", std::move(number_attr), false});
  return *this;
}
OpDefBuilder& OpDefBuilder::InputTypeList(std::string name, std::string type_list_attr) {
  def_.inputs.push_back({std::move(name), DT_INVALID, "", "", false, std::move(type_list_attr)});
  return *this;
}
OpDefBuilder& OpDefBuilder::OutputTypeList(std::string name, std::string type_list_attr) {
  def_.outputs.push_back({std::move(name), DT_INVALID, "", "", false, std::move(type_list_attr)});
  return *this;
}
OpDefBuilder& OpDefBuilder::TypeAttr(std::string name, std::vector<DataType> allowed) {
  def_.attrs.push_back({std::move(name), AttrKind::kType, std::nullopt, std::move(allowed)});
  return *this;
}
OpDefBuilder& OpDefBuilder::TypeAttr(std::string name, std::vector<DataType> allowed,
                                     DataType dflt) {
  def_.attrs.push_back({std::move(name), AttrKind::kType, AttrValue(dflt), std::move(allowed)});
  return *this;
}
OpDefBuilder& OpDefBuilder::Attr(std::string name, AttrKind kind) {
  def_.attrs.push_back({std::move(name), kind, std::nullopt, {}});
  return *this;
}
OpDefBuilder& OpDefBuilder::Attr(std::string name, AttrKind kind, AttrValue dflt) {
  def_.attrs.push_back({std::move(name), kind, std::move(dflt), {}});
  return *this;
}
OpDefBuilder& OpDefBuilder::SetShapeFn(ShapeFn fn) {
  def_.shape_fn = std::move(fn);
  return *this;
}
OpDefBuilder& OpDefBuilder::SetIsStateful() {
  def_.is_stateful = true;
  return *this;
}

}  // namespace rill
