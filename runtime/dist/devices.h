// Each rank's default GPU: with several ranks on a machine, rank r's default device is
// /GPU:(r mod the GPU count), as Horovod users pin one GPU per local rank.
#pragma once

#include "rill/runtime/device.h"

namespace rill::dist {

// Moves GPU (local_rank mod the number of GPUs) ahead of the other GPUs in `set` (the
// placer's default is the first device with a kernel); the rest keep their order.
void PreferGpuOfLocalRank(DeviceSet* set, int local_rank);

}  // namespace rill::dist
