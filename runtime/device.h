// Devices present in this process. The CPU is always there; GPUs join when the CUDA
// build finds one at run time. Devices are listed in priority order (GPU first).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rill/core/device_name.h"
#include "rill/core/kernel.h"
#include "rill/runtime/caching_allocator.h"

namespace rill {

// A device's memory figures: its own memory, and the pinned host memory that stages its
// copies (feeds are staged there, fetched tensors live there).
struct DeviceMemoryStats {
  CachingAllocatorStats device;
  CachingAllocatorStats pinned_host;
  // Device memory of uploads started ahead of their step (PrefetchFromHost), and how
  // many of those a step then used instead of copying.
  CachingAllocatorStats prefetch;
  int64_t prefetch_hits = 0;
};

// A device's work for one step, recorded once and replayed (a CUDA graph): Launch enqueues
// it on the device's stream, after whatever was enqueued there before.
class DeviceGraph {
 public:
  virtual ~DeviceGraph() = default;
  virtual absl::Status Launch() = 0;
};

class Device : public DeviceBase {
 public:
  Device(std::string type, int id, Allocator* allocator)
      : type_(std::move(type)), id_(id), name_(DeviceName::Full(type_, id)), allocator_(allocator) {
    parsed_.job = "localhost";
    parsed_.replica = 0;
    parsed_.task = 0;
    parsed_.type = type_;
    parsed_.id = id;
  }
  const std::string& name() const override { return name_; }
  const std::string& device_type() const override { return type_; }
  Allocator* allocator() const override { return allocator_; }  // GPU devices override
  int id() const { return id_; }
  const DeviceName& parsed_name() const { return parsed_; }
  // Devices with their own memory (GPUs) report it; the CPU has nothing to report.
  virtual std::optional<DeviceMemoryStats> memory_stats() const { return std::nullopt; }

  // Recording a step (SessionOptions::cuda_graphs; runtime/step_graph.h). Only a device
  // that CanCapture is asked to: between BeginCapture and EndCapture, the work the calling
  // thread enqueues on this device is recorded instead of run, memory it allocates comes
  // from the recording's own pool (kept as long as the graph), and anything that would make
  // the host wait for the device fails. One recording at a time per device.
  virtual bool CanCapture() const { return false; }
  virtual absl::Status BeginCapture() {
    return errors::FailedPrecondition(name(), " cannot record a step");
  }
  // The recording, ready to launch; an error when a kernel did what a recording cannot.
  virtual absl::StatusOr<std::unique_ptr<DeviceGraph>> EndCapture() {
    return errors::FailedPrecondition(name(), " cannot record a step");
  }
  // Copies `src` into the existing buffer of `dst` (same dtype and bytes), on this device,
  // in the calling thread's stream order (recorded while it records).
  virtual absl::Status CopyInto(const Tensor& src, const Tensor& dst);

 private:
  std::string type_;
  int id_;
  std::string name_;
  Allocator* allocator_;
  DeviceName parsed_;
};

// The devices a Session may use, highest priority first.
class DeviceSet {
 public:
  // Every device of this process (the CPU, then any GPU the CUDA build registers).
  static DeviceSet Local();
  void Add(std::shared_ptr<Device> d);
  const std::vector<std::shared_ptr<Device>>& devices() const& { return devices_; }
  // On a temporary (DeviceSet::Local().devices()) a copy, so range-for cannot dangle.
  std::vector<std::shared_ptr<Device>> devices() && { return std::move(devices_); }
  Device* cpu() const;

 private:
  std::vector<std::shared_ptr<Device>> devices_;
};

// The memory statistics of the device `spec` names ("/GPU:0", "/device:GPU:0", a full
// name), as TensorFlow's get_memory_info: InvalidArgument for a malformed name or a device
// without its own memory (the CPU), NotFound when no such device is present.
absl::StatusOr<DeviceMemoryStats> GetDeviceMemoryStats(absl::string_view spec);

// A GPU build registers a factory that adds its devices to DeviceSet::Local().
using DeviceFactory = void (*)(DeviceSet*);
void RegisterDeviceFactory(DeviceFactory f);

}  // namespace rill
