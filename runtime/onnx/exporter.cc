#include "rill/runtime/onnx/exporter.h"

#include "absl/strings/str_cat.h"
#include "rill/runtime/onnx/tensor_proto.h"

namespace rill::onnx::internal {

std::string ValueName(const std::string& node, int index) {
  return index == 0 ? node : absl::StrCat(node, ":", index);
}

std::string ExportContext::In(int i) const {
  const NodeOut in = node_.input(i);
  return ValueName(in.node->name(), in.index);
}

std::string ExportContext::Out(int i) const { return ValueName(node_.name(), i); }

const Tensor* ExportContext::ConstIn(int i) const {
  const Node* n = node_.input(i).node;
  if (!n->IsConstant()) return nullptr;
  return &std::get<Tensor>(n->attrs().at("value"));
}

int64_t ExportContext::InRank(int i) const {
  const NodeOut in = node_.input(i);
  const PartialTensorShape& s = in.node->output_shape(in.index);
  return s.unknown_rank() ? -1 : s.dims();
}

::onnx::NodeProto* ExportContext::Add(const std::string& op, std::vector<std::string> inputs,
                                      std::vector<std::string> outputs) {
  ::onnx::NodeProto* n = graph_->add_node();
  n->set_op_type(op);
  n->set_name(absl::StrCat(node_.name(), "/", op, temps_++));
  for (auto& s : inputs) n->add_input(s);
  for (auto& s : outputs) n->add_output(s);
  return n;
}

std::string ExportContext::Temp(const std::string& what) {
  return absl::StrCat(node_.name(), "/", what, "_", temps_++);
}

std::string ExportContext::Int64s(const std::string& what, const std::vector<int64_t>& v) {
  ::onnx::TensorProto* t = graph_->add_initializer();
  const std::string name = Temp(what);
  t->set_name(name);
  t->set_data_type(::onnx::TensorProto::INT64);
  t->add_dims(static_cast<int64_t>(v.size()));
  for (int64_t x : v) t->add_int64_data(x);
  return name;
}

std::string ExportContext::Initializer(const std::string& what, const Tensor& t) {
  ::onnx::TensorProto* p = graph_->add_initializer();
  const std::string name = Temp(what);
  // Only dtypes ToOnnxType knows reach here (the exporters make float and int64 scalars).
  (void)TensorToProto(t, p);
  p->set_name(name);
  return name;
}

std::string ExportContext::Transposed(const std::string& value, const std::vector<int64_t>& perm,
                                      const std::string& what) {
  const std::string out = Temp(what);
  SetInts(Add("Transpose", {value}, {out}), "perm", perm);
  return out;
}

namespace {
::onnx::AttributeProto* NewAttr(::onnx::NodeProto* n, const std::string& name,
                                ::onnx::AttributeProto::AttributeType type) {
  ::onnx::AttributeProto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(type);
  return a;
}
}  // namespace

void SetInts(::onnx::NodeProto* n, const std::string& name, const std::vector<int64_t>& v) {
  auto* a = NewAttr(n, name, ::onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}

void SetInt(::onnx::NodeProto* n, const std::string& name, int64_t v) {
  NewAttr(n, name, ::onnx::AttributeProto::INT)->set_i(v);
}

void SetFloat(::onnx::NodeProto* n, const std::string& name, float v) {
  NewAttr(n, name, ::onnx::AttributeProto::FLOAT)->set_f(v);
}

void SetString(::onnx::NodeProto* n, const std::string& name, const std::string& v) {
  NewAttr(n, name, ::onnx::AttributeProto::STRING)->set_s(v);
}

ExporterRegistry* ExporterRegistry::Global() {
  static auto* r = new ExporterRegistry;
  return r;
}

bool ExporterRegistry::Register(const std::string& op, ExportFn fn) {
  exporters_[op] = std::move(fn);
  return true;
}

const ExportFn* ExporterRegistry::Find(const std::string& op) const {
  auto it = exporters_.find(op);
  return it == exporters_.end() ? nullptr : &it->second;
}

}  // namespace rill::onnx::internal
