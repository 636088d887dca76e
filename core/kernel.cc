#include "rill/core/kernel.h"

#include <algorithm>
#include <cstring>
#include <mutex>

#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"

namespace rill {

Var* ResourceMgr::LookupOrCreateVar(const std::string& name, DataType dtype,
                                    const PartialTensorShape& shape) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& v = vars_[name];
  if (!v) v = std::make_unique<Var>(name, dtype, shape);
  return v.get();
}

ResourceBase* ResourceMgr::LookupOrCreate(
    const std::string& name, const std::function<std::unique_ptr<ResourceBase>()>& make) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& r = resources_[name];
  if (!r) r = make();
  return r.get();
}

absl::Status DeviceBase::CopyOnDevice(const Tensor& src, Tensor* dst) {
  RILL_ASSIGN_OR_RETURN(*dst, Tensor::Create(src.dtype(), src.shape(), allocator()));
  if (src.TotalBytes() > 0) std::memcpy(dst->data(), src.data(), src.TotalBytes());
  return absl::OkStatus();
}

bool KernelDef::ReadsOnHost(int input, int num_inputs) const {
  for (int k : host_memory_inputs) {
    if (k == kAllHostInputs || k == input || (k < 0 && num_inputs + k == input)) return true;
  }
  return false;
}

absl::Status OpKernelContext::allocate_output(int i, const TensorShape& shape, Tensor** out) {
  DataType dt = node_.output_type(i);
  const int64_t bytes =
      shape.valid() ? MultiplyWithoutOverflow(shape.num_elements(), DataTypeSize(dt)) : -1;
  TensorBuffer* planned = output_memory_ != nullptr && output_allocator_ == nullptr && bytes >= 0
                              ? output_memory_->Take(i, static_cast<size_t>(bytes))
                              : nullptr;
  Tensor t = planned != nullptr
                 ? Tensor::Adopt(dt, shape, planned)
                 : Tensor(output_allocator_ != nullptr ? output_allocator_ : device_->allocator(),
                          dt, shape);
  if (!t.IsInitialized()) {
    if (!shape.valid()) {
      return errors::InvalidArgument("output shape is invalid: ", shape.status().message());
    }
    if (bytes < 0) {
      return errors::InvalidArgument("a ", DataTypeString(dt), " output of shape ",
                                     shape.DebugString(), " needs more bytes than fit in int64");
    }
    return errors::ResourceExhausted("out of memory allocating ", bytes, " bytes for a ",
                                     DataTypeString(dt), " output of shape ", shape.DebugString());
  }
  if (i < 64) allocated_ |= uint64_t{1} << i;
  outputs_[i] = std::move(t);
  *out = &outputs_[i];
  return absl::OkStatus();
}

absl::Status OpKernelContext::forward_or_allocate_output(int in, int i, const TensorShape& shape,
                                                         Tensor** out) {
  const Tensor& src = *inputs_[in];
  // The executor holds one reference in its value slot; with this node its only consumer,
  // a count of one means nobody else (no fetch, no variable, no feed) can see the buffer.
  bool sole = in < 64 && ((forwardable_ >> in) & 1);
  if (sole && src.RefCountIsOne() && src.dtype() == node_.output_type(i) && src.shape() == shape &&
      src.allocator() ==
          (output_allocator_ != nullptr ? output_allocator_ : device_->allocator())) {
    outputs_[i] = src;
    *out = &outputs_[i];
    return absl::OkStatus();
  }
  return allocate_output(i, shape, out);
}

absl::StatusOr<Tensor> OpKernelContext::UploadCheckedHostInput(int i, HostInputCheck check) const {
  const Tensor& host = input(i);
  RILL_RETURN_IF_ERROR(check(host));
  if (host_inputs_ != nullptr) return host_inputs_->RecordHostInput(i, host, std::move(check));
  Tensor on_device;
  RILL_RETURN_IF_ERROR(device_->CopyFromHost(host, &on_device));
  return on_device;
}

absl::StatusOr<Tensor> OpKernelContext::UploadHostValue(const Tensor& host) const {
  if (host_inputs_ != nullptr) return host_inputs_->RecordFixedHostValue(host);
  Tensor on_device;
  RILL_RETURN_IF_ERROR(device_->CopyFromHost(host, &on_device));
  return on_device;
}

KernelRegistry* KernelRegistry::Global() {
  static KernelRegistry* r = new KernelRegistry;
  return r;
}

void KernelRegistry::Register(KernelDef def) {
  std::string op = def.op;
  by_op_[op].push_back(std::move(def));
}

const KernelDef* KernelRegistry::Find(const Node& node, absl::string_view device_type) const {
  auto it = by_op_.find(node.type_string());
  if (it == by_op_.end()) return nullptr;
  const KernelDef* any_dtype = nullptr;  // a kernel for one dtype wins over one for all
  for (const KernelDef& k : it->second) {
    if (k.device_type != device_type) continue;
    if (k.constraint_attr.empty()) {
      if (any_dtype == nullptr) any_dtype = &k;
      continue;
    }
    auto a = node.attrs().find(k.constraint_attr);
    if (a != node.attrs().end() && std::get<DataType>(a->second) == k.dtype) return &k;
  }
  return any_dtype;
}

std::vector<std::string> KernelRegistry::DeviceTypesFor(const Node& node) const {
  std::vector<std::string> out;
  for (const KernelDef& k : DefsFor(node.type_string())) {
    if (std::find(out.begin(), out.end(), k.device_type) == out.end() &&
        Find(node, k.device_type) != nullptr) {
      out.push_back(k.device_type);
    }
  }
  return out;
}

const std::vector<KernelDef>& KernelRegistry::DefsFor(absl::string_view op) const {
  static const std::vector<KernelDef> kNone;
  auto it = by_op_.find(op);
  return it == by_op_.end() ? kNone : it->second;
}

std::vector<std::string> KernelRegistry::OpsWithKernels(absl::string_view device_type) const {
  std::vector<std::string> out;
  for (const auto& [op, defs] : by_op_) {
    for (const KernelDef& k : defs) {
      if (k.device_type == device_type) {
        out.push_back(op);
        break;
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

absl::StatusOr<std::unique_ptr<OpKernel>> CreateKernel(const Node& node, DeviceBase* device,
                                                       ResourceMgr* resources,
                                                       KernelOptions options) {
  const KernelDef* def = KernelRegistry::Global()->Find(node, device->device_type());
  if (def == nullptr) {
    std::string dtype = "-";
    if (auto a = node.attrs().find("T"); a != node.attrs().end()) {
      dtype = DataTypeString(std::get<DataType>(a->second));
    }
    std::vector<std::string> have = KernelRegistry::Global()->DeviceTypesFor(node);
    return errors::NotFound(
        node.DebugName(), ": no kernel for dtype ", dtype, " on ", device->name(),
        "; devices with a kernel: ", have.empty() ? "none" : absl::StrJoin(have, ", "));
  }
  return CreateKernel(*def, node, device, resources, options);
}

absl::StatusOr<std::unique_ptr<OpKernel>> CreateKernel(const KernelDef& def, const Node& node,
                                                       DeviceBase* device, ResourceMgr* resources,
                                                       KernelOptions options) {
  // Kernels do not fail to construct: attributes were checked when the node was built
  // (its op's shape function), and inputs are checked in Compute.
  OpKernelConstruction c(node, device, resources, options);
  return def.factory(c);
}

}  // namespace rill

namespace rill {
namespace {
struct Warmups {
  std::mutex mu;
  absl::flat_hash_map<std::string, std::vector<std::function<void()>>> fns;
  absl::flat_hash_map<std::string, bool> done;
};
Warmups& TheWarmups() {
  static auto* w = new Warmups;
  return *w;
}
}  // namespace

void RegisterKernelWarmup(const std::string& device_type, std::function<void()> fn) {
  Warmups& w = TheWarmups();
  std::lock_guard<std::mutex> lock(w.mu);
  w.fns[device_type].push_back(std::move(fn));
}

void RunKernelWarmups(const std::string& device_type) {
  Warmups& w = TheWarmups();
  std::lock_guard<std::mutex> lock(w.mu);
  if (w.done[device_type]) return;
  w.done[device_type] = true;
  for (auto& fn : w.fns[device_type]) fn();
}
}  // namespace rill
