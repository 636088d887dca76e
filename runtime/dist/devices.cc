#include "rill/runtime/dist/devices.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace rill::dist {

void PreferGpuOfLocalRank(DeviceSet* set, int local_rank) {
  std::vector<std::shared_ptr<Device>> all = set->devices();
  std::vector<size_t> gpus;
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i]->device_type() == DEVICE_GPU) gpus.push_back(i);
  }
  if (gpus.size() < 2 || local_rank <= 0) return;
  const size_t mine = gpus[static_cast<size_t>(local_rank) % gpus.size()];
  std::rotate(all.begin() + static_cast<std::ptrdiff_t>(gpus.front()),
              all.begin() + static_cast<std::ptrdiff_t>(mine),
              all.begin() + static_cast<std::ptrdiff_t>(mine) + 1);
  DeviceSet reordered;
  for (auto& d : all) reordered.Add(std::move(d));
  *set = std::move(reordered);
}

}  // namespace rill::dist
