// Helpers of the ONNX tests: models built with ONNX's own protobuf classes. The graph
// forms build subgraphs (If's branches, Loop's body) the same way.
#pragma once

#include <string>
#include <vector>

#include "onnx/onnx_pb.h"

namespace rill::onnx_test {

inline ::onnx::ModelProto NewModel(int64_t opset = 13) {
  ::onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("rill-test");
  auto* op = m.add_opset_import();
  op->set_domain("");
  op->set_version(opset);
  m.mutable_graph()->set_name("g");
  return m;
}

// A graph input of `dims` (-1: a symbolic dim "N"; no dims and scalar false: no shape).
inline void AddInput(::onnx::GraphProto* g, const std::string& name, std::vector<int64_t> dims,
                     int32_t type = ::onnx::TensorProto::FLOAT) {
  auto* in = g->add_input();
  in->set_name(name);
  auto* t = in->mutable_type()->mutable_tensor_type();
  t->set_elem_type(type);
  auto* shape = t->mutable_shape();
  for (int64_t d : dims) {
    auto* dim = shape->add_dim();
    if (d < 0) {
      dim->set_dim_param("N");
    } else {
      dim->set_dim_value(d);
    }
  }
}
inline void AddInput(::onnx::ModelProto* m, const std::string& name, std::vector<int64_t> dims,
                     int32_t type = ::onnx::TensorProto::FLOAT) {
  AddInput(m->mutable_graph(), name, std::move(dims), type);
}

inline void AddOutput(::onnx::GraphProto* g, const std::string& name,
                      int32_t type = ::onnx::TensorProto::FLOAT) {
  auto* out = g->add_output();
  out->set_name(name);
  auto* t = out->mutable_type()->mutable_tensor_type();
  t->set_elem_type(type);
  t->mutable_shape();  // ONNX's checker wants a shape, even one of unknown dims
}
inline void AddOutput(::onnx::ModelProto* m, const std::string& name,
                      int32_t type = ::onnx::TensorProto::FLOAT) {
  AddOutput(m->mutable_graph(), name, type);
}

inline ::onnx::NodeProto* AddNode(::onnx::GraphProto* g, const std::string& op,
                                  std::vector<std::string> in, std::vector<std::string> out,
                                  const std::string& name = "") {
  ::onnx::NodeProto* n = g->add_node();
  n->set_op_type(op);
  n->set_name(name.empty() ? out[0] + "_node" : name);
  for (auto& s : in) n->add_input(s);
  for (auto& s : out) n->add_output(s);
  return n;
}
inline ::onnx::NodeProto* AddNode(::onnx::ModelProto* m, const std::string& op,
                                  std::vector<std::string> in, std::vector<std::string> out,
                                  const std::string& name = "") {
  return AddNode(m->mutable_graph(), op, std::move(in), std::move(out), name);
}

inline void AddStringAttr(::onnx::NodeProto* n, const std::string& name, const std::string& value) {
  ::onnx::AttributeProto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::STRING);
  a->set_s(value);
}

// A graph attribute (If's then_branch, Loop's body); returns the graph to fill.
inline ::onnx::GraphProto* AddGraphAttr(::onnx::NodeProto* n, const std::string& name) {
  ::onnx::AttributeProto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::GRAPH);
  a->mutable_g()->set_name(name);
  return a->mutable_g();
}

inline void AddFloatInit(::onnx::GraphProto* g, const std::string& name, std::vector<int64_t> dims,
                         std::vector<float> v) {
  ::onnx::TensorProto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(::onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t->add_dims(d);
  for (float f : v) t->add_float_data(f);
}
inline void AddFloatInit(::onnx::ModelProto* m, const std::string& name, std::vector<int64_t> dims,
                         std::vector<float> v) {
  AddFloatInit(m->mutable_graph(), name, std::move(dims), std::move(v));
}

inline void AddInt64Init(::onnx::GraphProto* g, const std::string& name, std::vector<int64_t> dims,
                         std::vector<int64_t> v) {
  ::onnx::TensorProto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(::onnx::TensorProto::INT64);
  for (int64_t d : dims) t->add_dims(d);
  for (int64_t x : v) t->add_int64_data(x);
}

inline std::string Bytes(const ::onnx::ModelProto& m) { return m.SerializeAsString(); }

}  // namespace rill::onnx_test
