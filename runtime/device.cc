#include "rill/runtime/device.h"

#include <mutex>

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
  for (const auto& d : set.devices()) RunKernelWarmups(d->device_type());
  return set;
}

void DeviceSet::Add(std::shared_ptr<Device> d) { devices_.push_back(std::move(d)); }

Device* DeviceSet::cpu() const {
  for (const auto& d : devices_)
    if (d->device_type() == DEVICE_CPU) return d.get();
  return nullptr;
}

}  // namespace rill
