// A variable's storage, owned by a Session and shared by the kernels that read or update
// it. Reads take a reference to the current buffer; updates copy first when that buffer
// is still shared (copy-on-write), so a value already read or fetched never changes under
// its reader, and concurrent updates of one variable are serialised by its mutex.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "rill/core/tensor.h"

namespace rill {

class Var {
 public:
  Var(std::string name, DataType dtype, PartialTensorShape shape)
      : name_(std::move(name)), dtype_(dtype), shape_(std::move(shape)) {}

  const std::string& name() const { return name_; }
  DataType dtype() const { return dtype_; }
  const PartialTensorShape& shape() const { return shape_; }
  std::mutex& mu() { return mu_; }
  // Callers hold mu().
  bool initialized() const { return value_.IsInitialized(); }
  Tensor& value() { return value_; }

 private:
  std::string name_;
  DataType dtype_;
  PartialTensorShape shape_;
  std::mutex mu_;
  Tensor value_;
};

// Per-session state that kernels share across runs and across execution plans.
class ResourceBase {
 public:
  virtual ~ResourceBase() = default;
};

class ResourceMgr {
 public:
  // The variable named `name`, created on first use.
  Var* LookupOrCreateVar(const std::string& name, DataType dtype, const PartialTensorShape& shape);
  // Any other per-node state (a random generator's counter), created by `make` on first use.
  ResourceBase* LookupOrCreate(const std::string& name,
                               const std::function<std::unique_ptr<ResourceBase>()>& make);

 private:
  std::mutex mu_;
  absl::flat_hash_map<std::string, std::unique_ptr<Var>> vars_;
  absl::flat_hash_map<std::string, std::unique_ptr<ResourceBase>> resources_;
};

}  // namespace rill
