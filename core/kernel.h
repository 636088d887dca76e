// Kernels: the per-device implementation of an op, registered with the device type and
// dtype they support. The placer asks the registry whether a device has a kernel for a
// node; the executor calls Compute.
#pragma once

#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "rill/core/device_name.h"
#include "rill/core/graph.h"
#include "rill/core/variable.h"

namespace rill {
namespace gpu {
struct GpuContext;
}  // namespace gpu

// What a kernel needs of the device it runs on.
// Device-side timing of the work a kernel enqueues (a GPU's CUDA events). Made by
// DeviceBase::StartTimer before a kernel runs, stopped after it; read once the device has
// finished the step.
class DeviceTimer {
 public:
  virtual ~DeviceTimer() = default;
  virtual void Stop() = 0;
  virtual absl::StatusOr<int64_t> ElapsedNs() = 0;
};

class DeviceBase {
 public:
  virtual ~DeviceBase() = default;
  virtual const std::string& name() const = 0;  // full name
  virtual const std::string& device_type() const = 0;
  virtual Allocator* allocator() const = 0;
  // Host devices share buffers; a device with its own memory overrides both copies.
  // Each allocates `dst` on the receiving side and returns once the data is usable.
  virtual absl::Status CopyFromHost(const Tensor& src, Tensor* dst) {
    *dst = src;
    return absl::OkStatus();
  }
  virtual absl::Status CopyToHost(const Tensor& src, Tensor* dst) {
    *dst = src;
    return absl::OkStatus();
  }
  // As CopyToHost, but the data may arrive only by the next Sync: for fetched values,
  // which the executor reads after the step's Sync, so a fetch does not make the host
  // wait for the device in the middle of a step.
  virtual absl::Status CopyToHostAsync(const Tensor& src, Tensor* dst) {
    return CopyToHost(src, dst);
  }
  // Copies src (on this device) into *dst, allocated here with src's dtype and shape; the
  // copy is usable by later work on this device.
  virtual absl::Status CopyOnDevice(const Tensor& src, Tensor* dst);
  bool IsHost() const { return allocator()->OnHost(); }
  // Waits for the work queued on this device (a GPU's stream); a step ends with it, so
  // a Run returns only when its work is done and reports asynchronous errors itself
  // (unless it fetches nothing and RunOptions::wait_for_devices is false).
  virtual absl::Status Sync() { return absl::OkStatus(); }
  // Ends a step without waiting for its queued work (RunOptions::wait_for_devices =
  // false): the device keeps what that work still reads (staged uploads) until it is
  // done, and waits only when too many steps are queued. Where nothing runs
  // asynchronously this is Sync.
  virtual absl::Status FinishStepAsync() { return Sync(); }
  // A GPU device's stream and library handles (kernels/cuda/gpu_context.h defines the
  // struct; only GPU code needs it); else null.
  virtual gpu::GpuContext* gpu_context() const { return nullptr; }
  // Host memory this device uploads from without a bounce buffer (a GPU's pinned host
  // memory); data prepared there in advance (the next training batch) is copied in by
  // DMA alone. Null where uploads need no staging (the CPU).
  virtual Allocator* host_staging_allocator() const { return nullptr; }
  // Starts copying `host` (prepared in host_staging_allocator() memory: the next batch)
  // to this device on a separate copy engine, overlapping the work in flight; a later
  // CopyFromHost of the same tensor then waits for that copy instead of making its own.
  // Best effort: devices without a copy engine, and sources elsewhere, are left alone.
  virtual void PrefetchFromHost(const Tensor& host) { (void)host; }
  // A timer of the work this device queues from now on; null where kernels run
  // synchronously on the calling thread (host time is the kernel time there).
  virtual std::unique_ptr<DeviceTimer> StartTimer() { return nullptr; }
  // While the calling thread records a step (a CUDA graph): a counter in this device's
  // memory that every launch of the recording first sets to `next()`, for the recorded
  // work to read there, so a random op draws new numbers at each replay, the ones an
  // ordinary run would. Null when this thread is not recording (read the value itself).
  virtual absl::StatusOr<const uint64_t*> ReplayCounter(std::function<uint64_t()> next) {
    (void)next;
    return nullptr;
  }
};

class FunctionRuntime;  // core/function.h

// Session options that kernels honour.
struct KernelOptions {
  bool allow_tf32 = false;  // float32 MatMul on GPUs may use TF32 tensor cores
  // The Session's planner of functions, for kernels that call them (If, While); null
  // where none is at hand (constant folding), and such kernels then fail with a Status.
  FunctionRuntime* functions = nullptr;
};

class OpKernelConstruction {
 public:
  OpKernelConstruction(const Node& node, DeviceBase* device, ResourceMgr* resources,
                       KernelOptions options = {})
      : node_(node), device_(device), resources_(resources), options_(options) {}
  const Node& node() const { return node_; }
  DeviceBase* device() const { return device_; }
  ResourceMgr* resources() const { return resources_; }
  const KernelOptions& options() const { return options_; }

 private:
  const Node& node_;
  DeviceBase* device_;
  ResourceMgr* resources_;
  KernelOptions options_;
};

// Where an execution plan's memory planner wants a node's outputs to live: buffers in
// its arena, handed out only when the bytes fit and nothing else uses that memory.
class OutputMemory {
 public:
  virtual ~OutputMemory() = default;
  // An idle buffer of at least `bytes` for output i, now handed out; nullptr: allocate.
  virtual TensorBuffer* Take(int output, size_t bytes) = 0;
};

// A kernel's host-side rule for a host-memory input it reads on its device (labels in
// range, indices in bounds): OpKernelContext::UploadCheckedHostInput.
using HostInputCheck = std::function<absl::Status(const Tensor&)>;

// Set on a kernel's context while its step is recorded for replay (graph mode): the
// uploads of checked host inputs, which the executor repeats before every launch.
class HostInputRecorder {
 public:
  virtual ~HostInputRecorder() = default;
  // A buffer on the recording device, of `host`'s dtype and shape, that every launch of
  // the recording (this run's included) first fills with input `input`'s value of that
  // run, once `check` accepts it.
  virtual absl::StatusOr<Tensor> RecordHostInput(int input, const Tensor& host,
                                                 HostInputCheck check) = 0;
  // A buffer on the recording device holding `host`, a value the kernel computed from
  // inputs fixed for the recording: filled once, before its first launch.
  virtual absl::StatusOr<Tensor> RecordFixedHostValue(const Tensor& host) = 0;
};

class OpKernelContext {
 public:
  // `forwardable` has bit i set when this node is the only consumer of input i and the
  // value is not fetched, so its buffer may be reused for an output.
  OpKernelContext(const Node& node, DeviceBase* device, const Tensor* const* inputs,
                  Tensor* outputs, uint64_t forwardable = 0)
      : node_(node),
        device_(device),
        inputs_(inputs),
        outputs_(outputs),
        forwardable_(forwardable) {}

  const Node& node() const { return node_; }
  DeviceBase* device() const { return device_; }
  int num_inputs() const { return node_.num_inputs(); }
  const Tensor& input(int i) const { return *inputs_[i]; }

  // Allocates output i on this device; ResourceExhausted names node, shape and bytes.
  absl::Status allocate_output(int i, const TensorShape& shape, Tensor** out);
  // Like allocate_output, but reuses input `in`'s buffer when nothing else holds it.
  absl::Status forward_or_allocate_output(int in, int i, const TensorShape& shape, Tensor** out);
  void set_output(int i, Tensor t) { outputs_[i] = std::move(t); }
  DataType output_type(int i) const { return node_.output_type(i); }
  // Outputs of a kernel registered with host-memory outputs come from here.
  void set_output_allocator(Allocator* a) { output_allocator_ = a; }
  // Outputs allocated by allocate_output (on this device) come from here when it can.
  void set_output_memory(OutputMemory* m) { output_memory_ = m; }
  // Bit i: output i got fresh memory from allocate_output (not a forwarded input).
  uint64_t allocated_outputs() const { return allocated_; }

  // Host-memory input i on this context's device, after `check` accepted it on the host:
  // for kernels that check a small input there (labels, indices) and read it on the
  // device. While the step is recorded (set_host_input_recorder) nothing is copied now:
  // the executor checks and copies each run's value before every launch, so a kernel
  // that reads input i only through here says so (OpKernel::UploadsCheckedHostInput).
  absl::StatusOr<Tensor> UploadCheckedHostInput(int i, HostInputCheck check) const;
  // A host value the kernel computed from its host-memory inputs and shapes (resize taps,
  // segment offsets), on this context's device. A recorded step reads those inputs only
  // from constants and values fixed for the recording (AnalyzeForReplay), so while it is
  // recorded the value is copied once, before the recording's first launch.
  absl::StatusOr<Tensor> UploadHostValue(const Tensor& host) const;
  void set_host_input_recorder(HostInputRecorder* r) { host_inputs_ = r; }

 private:
  const Node& node_;
  DeviceBase* device_;
  Allocator* output_allocator_ = nullptr;  // null: the device's
  OutputMemory* output_memory_ = nullptr;
  HostInputRecorder* host_inputs_ = nullptr;
  uint64_t allocated_ = 0;
  const Tensor* const* inputs_;
  Tensor* outputs_;
  uint64_t forwardable_;
};

class OpKernel {
 public:
  explicit OpKernel(OpKernelConstruction& c) : node_(c.node()) {}
  virtual ~OpKernel() = default;
  virtual absl::Status Compute(OpKernelContext& ctx) = 0;
  // Expensive kernels may run on the thread pool; cheap ones run inline.
  virtual bool IsExpensive() const { return false; }
  // A stateful kernel whose state only advances (a random op's stream) may be replayed
  // in a recorded step when it reads that state through DeviceBase::ReplayCounter while
  // recording; such kernels say so here.
  virtual bool AdvancesThroughReplayCounters() const { return false; }
  // A kernel that reads host-memory input `input` only through
  // OpKernelContext::UploadCheckedHostInput may be replayed in a recorded step that makes
  // that value on the host (a fed or host-computed label); such kernels say so here.
  virtual bool UploadsCheckedHostInput(int input) const {
    (void)input;
    return false;
  }
  const Node& node() const { return node_; }

 private:
  const Node& node_;
};

using KernelFactory = std::function<std::unique_ptr<OpKernel>(OpKernelConstruction&)>;

inline constexpr int kAllHostInputs = std::numeric_limits<int>::min();

struct KernelDef {
  std::string op;
  std::string device_type;
  std::string constraint_attr;  // empty: any dtype
  DataType dtype = DT_INVALID;
  KernelFactory factory;
  // Inputs this kernel reads on the host (shapes, axes) even when it runs on a device;
  // a negative index counts from the end (-1: the last input, ConcatV2's axis);
  // kAllHostInputs: every input, however many (ops whose input lists a host kernel reads).
  std::vector<int> host_memory_inputs;
  bool ReadsOnHost(int input, int num_inputs) const;
  // Every output is made in host memory although the kernel runs on a device (Shape and
  // Size: small values computed from metadata, which their consumers read on the host).
  bool host_memory_outputs = false;
};

class KernelRegistry {
 public:
  static KernelRegistry* Global();
  void Register(KernelDef def);
  // The kernel for `node` on `device_type`, or nullptr.
  const KernelDef* Find(const Node& node, absl::string_view device_type) const;
  // Device types with a kernel for `node`, in registration order ("CPU", "GPU").
  std::vector<std::string> DeviceTypesFor(const Node& node) const;
  // Every kernel registered for `op` (empty when none).
  const std::vector<KernelDef>& DefsFor(absl::string_view op) const;
  // Ops with at least one kernel on `device_type`.
  std::vector<std::string> OpsWithKernels(absl::string_view device_type) const;

 private:
  absl::flat_hash_map<std::string, std::vector<KernelDef>> by_op_;
};

// Creates the kernel for `node` on `device`; NotFound names the node, op, dtype and the
// devices that do have a kernel.
absl::StatusOr<std::unique_ptr<OpKernel>> CreateKernel(const Node& node, DeviceBase* device,
                                                       ResourceMgr* resources,
                                                       KernelOptions options = {});

// The same with the registry's answer already in hand (a plan looks each node up once).
absl::StatusOr<std::unique_ptr<OpKernel>> CreateKernel(const KernelDef& def, const Node& node,
                                                       DeviceBase* device, ResourceMgr* resources,
                                                       KernelOptions options = {});

struct KernelRegistration {
  KernelRegistration(std::string op, std::string device, std::string attr, DataType dt,
                     KernelFactory f, std::vector<int> host_memory_inputs = {},
                     bool host_memory_outputs = false) {
    KernelRegistry::Global()->Register({std::move(op), std::move(device), std::move(attr), dt,
                                        std::move(f), std::move(host_memory_inputs),
                                        host_memory_outputs});
  }
};

template <typename K>
std::unique_ptr<OpKernel> MakeKernel(OpKernelConstruction& c) {
  return std::make_unique<K>(c);
}

// RILL_REGISTER_KERNEL("Add", DEVICE_CPU, "T", DT_FLOAT, AddKernel<float>);
// RILL_REGISTER_KERNEL_HOST_INPUTS("Sum", DEVICE_GPU, "T", DT_FLOAT, {1}, SumGpu<float>);
#define RILL_REGISTER_KERNEL(op, device, attr, dtype, ...)                               \
  static ::rill::KernelRegistration RILL_CONCAT_(rill_kernel_registration_, __COUNTER__) \
      [[maybe_unused]] (op, device, attr, dtype, ::rill::MakeKernel<__VA_ARGS__>)
#define RILL_REGISTER_KERNEL_HOST_INPUTS(op, device, attr, dtype, host_inputs, ...)      \
  static ::rill::KernelRegistration RILL_CONCAT_(rill_kernel_registration_, __COUNTER__) \
      [[maybe_unused]] (op, device, attr, dtype, ::rill::MakeKernel<__VA_ARGS__>,        \
                        std::vector<int> host_inputs)
// A kernel on `device` that computes on the host: `host_inputs` are routed to the host
// and every output is made in host memory (see KernelDef). Inputs not listed stay on the
// device, for kernels that read only their shapes (Shape, Size).
#define RILL_REGISTER_KERNEL_HOST_OUTPUTS(op, device, attr, dtype, host_inputs, ...)     \
  static ::rill::KernelRegistration RILL_CONCAT_(rill_kernel_registration_, __COUNTER__) \
      [[maybe_unused]] (op, device, attr, dtype, ::rill::MakeKernel<__VA_ARGS__>,        \
                        std::vector<int> host_inputs, true)

}  // namespace rill

// Applies M(T, args...) to each element type of a family.
#define RILL_FOR_FLOAT_TYPES(M, ...) M(float, __VA_ARGS__) M(double, __VA_ARGS__)
#define RILL_FOR_SIGNED_TYPES(M, ...)  \
  RILL_FOR_FLOAT_TYPES(M, __VA_ARGS__) \
  M(int32_t, __VA_ARGS__) M(int64_t, __VA_ARGS__) M(int8_t, __VA_ARGS__) M(int16_t, __VA_ARGS__)
#define RILL_FOR_NUMBER_TYPES(M, ...)   \
  RILL_FOR_SIGNED_TYPES(M, __VA_ARGS__) \
  M(uint8_t, __VA_ARGS__) M(uint16_t, __VA_ARGS__) M(uint32_t, __VA_ARGS__) M(uint64_t, __VA_ARGS__)
#define RILL_FOR_ALL_TYPES(M, ...) RILL_FOR_NUMBER_TYPES(M, __VA_ARGS__) M(bool, __VA_ARGS__)
// The families' types that GPU kernels take: the narrow and unsigned integers (int8, int16,
// uint16, uint32, uint64) have CPU kernels only, so the placer runs them on the host.
#define RILL_FOR_GPU_FLOAT_TYPES(M, ...) RILL_FOR_FLOAT_TYPES(M, __VA_ARGS__)
#define RILL_FOR_GPU_SIGNED_TYPES(M, ...) \
  RILL_FOR_FLOAT_TYPES(M, __VA_ARGS__) M(int32_t, __VA_ARGS__) M(int64_t, __VA_ARGS__)
#define RILL_FOR_GPU_NUMBER_TYPES(M, ...) \
  RILL_FOR_GPU_SIGNED_TYPES(M, __VA_ARGS__) M(uint8_t, __VA_ARGS__)
#define RILL_FOR_GPU_ALL_TYPES(M, ...) \
  RILL_FOR_GPU_NUMBER_TYPES(M, __VA_ARGS__) M(bool, __VA_ARGS__)

namespace rill {
// Work a device's kernels need done once per process before their first use (a library's
// JIT and thread-pool start-up, GPU handles), so that it happens when the device is
// created rather than inside a user's first Run.
void RegisterKernelWarmup(const std::string& device_type, std::function<void()> fn);
// Runs the warm-ups of `device_type` once per process; later calls return at once.
void RunKernelWarmups(const std::string& device_type);
}  // namespace rill
