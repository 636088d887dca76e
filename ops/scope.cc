#include "rill/ops/scope.h"

#include <cstring>
#include <mutex>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"

namespace rill {

std::string Output::name() const {
  return node_ ? absl::StrCat(node_->name(), ":", index_) : "<none>";
}

Input::Initializer::Initializer(const Tensor& t) : tensor(t) {
  if (!t.IsInitialized()) {
    status = t.shape().valid() ? errors::InvalidArgument(
                                     "constant tensor of dtype ", DataTypeString(t.dtype()),
                                     " and shape ", t.shape().DebugString(), " is not initialized")
                               : t.shape().status();
  }
}

Input::Initializer::Initializer(const std::initializer_list<Initializer>& v) {
  if (v.size() == 0) {
    tensor = Tensor(DT_FLOAT, TensorShape({0}));
    return;
  }
  const Initializer& first = *v.begin();
  for (const Initializer& e : v) {
    if (!e.status.ok()) {
      status = e.status;
      return;
    }
    if (e.tensor.dtype() != first.tensor.dtype()) {
      status = errors::InvalidArgument(
          "initializer list components should all have the same type; got ",
          DataTypeString(first.tensor.dtype()), " and ", DataTypeString(e.tensor.dtype()));
      return;
    }
    if (e.tensor.shape() != first.tensor.shape()) {
      status = errors::InvalidArgument(
          "initializer list components should all have the same shape; got ",
          first.tensor.shape().DebugString(), " and ", e.tensor.shape().DebugString());
      return;
    }
  }
  TensorShape shape = first.tensor.shape();
  shape.InsertDim(0, static_cast<int64_t>(v.size()));
  tensor = Tensor(first.tensor.dtype(), shape);
  if (!shape.valid()) {
    status = shape.status();
    return;
  }
  char* dst = static_cast<char*>(tensor.data());
  for (const Initializer& e : v) {
    std::memcpy(dst, e.tensor.data(), e.tensor.TotalBytes());
    dst += e.tensor.TotalBytes();
  }
}

void Input::Initializer::Fill(DataType dt, const TensorShape& shape) {
  if (!shape.valid()) {
    status = shape.status();
    return;
  }
  absl::StatusOr<Tensor> t = Tensor::Create(dt, shape);
  if (!t.ok()) {
    status = t.status();
    return;
  }
  tensor = *std::move(t);
}

void Input::Initializer::FromValues(DataType dt, const void* data, size_t n,
                                    const TensorShape& shape) {
  if (!shape.valid()) {
    status = shape.status();
    return;
  }
  if (static_cast<int64_t>(n) != shape.num_elements()) {
    status = errors::InvalidArgument("initializer has ", n, " values but shape ",
                                     shape.DebugString(), " needs ", shape.num_elements());
    return;
  }
  tensor = Tensor(dt, shape);
  std::memcpy(tensor.data(), data, n * DataTypeSize(dt));
}

struct Scope::Shared {
  std::shared_ptr<Graph> graph = std::make_shared<Graph>();
  std::mutex mu;
  absl::Status status;
  absl::flat_hash_map<std::string, int> name_counts;
};

Scope::Scope(std::shared_ptr<Shared> s) : shared_(std::move(s)) {}

Graph* Scope::graph() const { return shared_->graph.get(); }
std::shared_ptr<Graph> Scope::graph_as_shared_ptr() const { return shared_->graph; }

Scope Scope::NewRootScope() { return Scope(std::make_shared<Shared>()); }

// TensorFlow's rule: `base` if nobody has it, else base_1, base_2, ... skipping every name
// given out before (as an op or a scope) and every node already in the graph.
std::string Scope::UniqueName(const std::string& base) const {
  std::lock_guard<std::mutex> lock(shared_->mu);
  auto& names = shared_->name_counts;
  const auto [it, fresh] = names.try_emplace(base, 0);
  if (fresh && !graph()->HasNode(base)) return base;
  int suffix = it->second;
  std::string name;
  do {
    name = absl::StrCat(base, "_", ++suffix);
  } while (names.contains(name) || graph()->HasNode(name));
  it->second = suffix;
  names.emplace(name, 0);
  return name;
}

Scope Scope::NewSubScope(const std::string& child) const {
  Scope s = *this;
  s.op_name_.clear();
  s.single_use_taken_ = nullptr;
  if (child.empty()) return s;
  s.prefix_ = UniqueName(prefix_.empty() ? child : absl::StrCat(prefix_, "/", child));
  return s;
}

Scope Scope::WithOpName(const std::string& op_name) const {
  Scope s = *this;
  s.op_name_ = op_name;
  return s;
}

Scope Scope::WithDevice(const std::string& device) const {
  Scope s = *this;
  s.device_ = device;
  return s;
}

Scope Scope::WithControlDependencies(absl::Span<const Operation> deps) const {
  Scope s = *this;
  s.control_deps_.insert(s.control_deps_.end(), deps.begin(), deps.end());
  return s;
}

Scope Scope::WithControlDependencies(const Output& dep) const {
  Operation op = dep.op();
  return WithControlDependencies(absl::Span<const Operation>(&op, 1));
}

Scope Scope::WithNoControlDependencies() const {
  Scope s = *this;
  s.control_deps_.clear();
  return s;
}

Scope Scope::ColocateWith(const Operation& op) const {
  Scope s = *this;
  const Node* n = op.node();
  s.colocate_with_ = n != nullptr && !n->colocate_with().empty() ? n->colocate_with() : op.name();
  return s;
}

Scope Scope::ClearColocation() const {
  Scope s = *this;
  s.colocate_with_.clear();
  return s;
}

bool Scope::ok() const {
  std::lock_guard<std::mutex> lock(shared_->mu);
  return shared_->status.ok();
}

absl::Status Scope::status() const {
  std::lock_guard<std::mutex> lock(shared_->mu);
  return shared_->status;
}

void Scope::UpdateStatus(const absl::Status& s) const {
  std::lock_guard<std::mutex> lock(shared_->mu);
  if (shared_->status.ok()) shared_->status = s;
}

std::string Scope::GetUniqueNameForOp(const std::string& default_name) const {
  if (single_use_taken_ != nullptr) {
    bool taken;
    {
      std::lock_guard<std::mutex> lock(shared_->mu);
      taken = std::exchange(*single_use_taken_, true);
    }
    if (!taken) return single_use_name_;
    UpdateStatus(errors::InvalidArgument("the single-use scope of composite op '", single_use_name_,
                                         "' named its op already"));
    return "";
  }
  const std::string& name = op_name_.empty() ? default_name : op_name_;
  return UniqueName(prefix_.empty() ? name : absl::StrCat(prefix_, "/", name));
}

CompositeOpScopes Scope::GetCompositeOpScopes(const std::string& composite_op_name) const {
  if (single_use_taken_ != nullptr) {
    // Inside a composite's last scope: the nested composite lives in the same name.
    Scope child = *this;
    child.single_use_taken_ = nullptr;
    child.op_name_.clear();
    child.prefix_ = single_use_name_;
    return {child, *this};
  }
  const std::string& name = op_name_.empty() ? composite_op_name : op_name_;
  if (name.empty()) {
    UpdateStatus(errors::InvalidArgument("a composite op needs a name"));
    return {*this, *this};
  }
  Scope child = NewSubScope(name);
  Scope last = *this;
  last.op_name_.clear();
  last.single_use_name_ = child.prefix_;
  last.single_use_taken_ = std::make_shared<bool>(false);
  return {child, last};
}

}  // namespace rill
