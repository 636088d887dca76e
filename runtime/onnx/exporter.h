// Internal: how a rill node becomes ONNX nodes. Exporters register themselves per rill op
// type (ExporterRegistry, no central list); the exporter walks the nodes that compute the
// requested outputs in topological order and asks each one's exporter to write it.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "onnx/onnx_pb.h"
#include "rill/core/graph.h"
#include "rill/core/status.h"

namespace rill::onnx::internal {

class ExportContext {
 public:
  ExportContext(::onnx::GraphProto* graph, const Node& node) : graph_(graph), node_(node) {}
  const Node& node() const { return node_; }
  // The ONNX value name of input i / output i of the node.
  std::string In(int i) const;
  std::string Out(int i) const;
  // A Const input's value, else null.
  const Tensor* ConstIn(int i) const;
  // The input's rank when known, else -1.
  int64_t InRank(int i) const;
  template <typename T>
  T Attr(const std::string& name) const {
    return std::get<T>(node_.attrs().at(name));
  }
  bool HasAttr(const std::string& name) const { return node_.attrs().count(name) != 0; }

  // Adds an ONNX node; returns it to add attributes.
  ::onnx::NodeProto* Add(const std::string& op, std::vector<std::string> inputs,
                         std::vector<std::string> outputs);
  // A fresh value name under this node ("<node>/<what>").
  std::string Temp(const std::string& what);
  // An int64 initializer holding `v`, named after this node; returns its name.
  std::string Int64s(const std::string& what, const std::vector<int64_t>& v);
  // An initializer holding `t`, named after this node; returns its name.
  std::string Initializer(const std::string& what, const Tensor& t);
  // Transposes `value` by `perm` into a fresh value; returns its name.
  std::string Transposed(const std::string& value, const std::vector<int64_t>& perm,
                         const std::string& what);

  template <typename... Args>
  absl::Status Error(const Args&... args) const {
    return errors::InvalidArgument("exporting node '", node_.name(), "' (", node_.type_string(),
                                   ") to ONNX: ", args...);
  }

 private:
  ::onnx::GraphProto* graph_;
  const Node& node_;
  int temps_ = 0;
};

void SetInts(::onnx::NodeProto* n, const std::string& name, const std::vector<int64_t>& v);
void SetInt(::onnx::NodeProto* n, const std::string& name, int64_t v);
void SetFloat(::onnx::NodeProto* n, const std::string& name, float v);
void SetString(::onnx::NodeProto* n, const std::string& name, const std::string& v);

// The ONNX value name of output `index` of node `name`.
std::string ValueName(const std::string& node, int index);

using ExportFn = std::function<absl::Status(ExportContext& c)>;

class ExporterRegistry {
 public:
  static ExporterRegistry* Global();
  bool Register(const std::string& op, ExportFn fn);
  const ExportFn* Find(const std::string& op) const;

 private:
  std::map<std::string, ExportFn> exporters_;
};

}  // namespace rill::onnx::internal
