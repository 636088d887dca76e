#include "rill/runtime/device.h"

#include <cstring>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "rill/runtime/dist/devices.h"
#include "rill/runtime/dist/dist.h"

namespace rill {
namespace {
std::vector<DeviceFactory>& Factories() {
  static auto* f = new std::vector<DeviceFactory>;
  return *f;
}
}  // namespace

void RegisterDeviceFactory(DeviceFactory f) { Factories().push_back(f); }

DeviceSet DeviceSet::Local() {
  static std::shared_ptr<Device> cpu = std::make_shared<Device>(DEVICE_CPU, 0, cpu_allocator());
  DeviceSet set;
  for (DeviceFactory f : Factories()) f(&set);  // accelerators first: higher priority
  set.Add(cpu);
  // Several ranks on one machine: each its own GPU by default (dist::Init comes first).
  if (dist::IsInitialized()) dist::PreferGpuOfLocalRank(&set, dist::LocalRank());
  for (const auto& d : set.devices()) RunKernelWarmups(d->device_type());
  return set;
}

void DeviceSet::Add(std::shared_ptr<Device> d) { devices_.push_back(std::move(d)); }

absl::Status Device::CopyInto(const Tensor& src, const Tensor& dst) {
  if (src.dtype() != dst.dtype() || src.TotalBytes() != dst.TotalBytes()) {
    return errors::Internal("CopyInto on ", name(), ": ", DataTypeString(src.dtype()), " ",
                            src.shape().DebugString(), " into ", DataTypeString(dst.dtype()), " ",
                            dst.shape().DebugString());
  }
  if (src.TotalBytes() > 0) std::memcpy(dst.data(), src.data(), src.TotalBytes());
  return absl::OkStatus();
}

Device* DeviceSet::cpu() const {
  for (const auto& d : devices_)
    if (d != nullptr && d->device_type() == DEVICE_CPU) return d.get();
  return nullptr;
}

absl::StatusOr<DeviceMemoryStats> GetDeviceMemoryStats(absl::string_view spec) {
  RILL_ASSIGN_OR_RETURN(DeviceName want, DeviceName::Parse(spec));
  std::string present;
  for (const auto& d : DeviceSet::Local().devices()) {
    absl::StrAppend(&present, present.empty() ? "" : ", ", d->name());
    if (!want.Matches(d->parsed_name())) continue;
    if (std::optional<DeviceMemoryStats> s = d->memory_stats()) return *s;
    return errors::InvalidArgument("device ", d->name(), " (for '", spec,
                                   "') keeps no memory statistics: only devices with their own "
                                   "memory (GPUs) do");
  }
  return errors::NotFound("no device matches '", spec, "'; present: ", present);
}

}  // namespace rill
