// The GPU the GPU benchmarks time, or nullptr where this machine has none.
#pragma once

#include <memory>

#include "rill/rill.h"

namespace rill::bench {

inline Device* Gpu() {
  static std::shared_ptr<Device> gpu = [] {
    DeviceSet set = DeviceSet::Local();
    for (const auto& d : set.devices())
      if (d->device_type() == DEVICE_GPU) return d;
    return std::shared_ptr<Device>();
  }();
  return gpu.get();
}

}  // namespace rill::bench
