// Copies between devices. The plan builder inserts a `_Copy` node on every data edge
// whose ends are on different devices (feeds count as host values, fetches must end on
// the host); variables read by an op on another device are copied at the read.
#pragma once

#include <memory>

#include "rill/runtime/device.h"

namespace rill {

// A new tensor on `dst_device` holding `src` (which lives on `src_device`).
absl::Status CopyBetweenDevices(const Tensor& src, DeviceBase* src_device, DeviceBase* dst_device,
                                Tensor* dst);

// The `_Copy` node for value `producer:index`, placed on `dst`; owned by `graph`.
absl::StatusOr<Node*> AddCopyNode(Graph* graph, const std::string& value_name, DataType dtype,
                                  const PartialTensorShape& shape, const Device& src,
                                  const Device& dst);

// `until_sync`: the copy feeds only fetches, read after the step's Sync, so a copy to the
// host may complete by then rather than before the node finishes (CopyToHostAsync).
std::unique_ptr<OpKernel> MakeCopyKernel(const Node& copy_node, Device* src, Device* dst,
                                         ResourceMgr* resources, bool until_sync = false);

}  // namespace rill
