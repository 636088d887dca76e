// The Session's FunctionRuntime (core/function.h): plans each function an If or While
// kernel calls, once, with the Session's devices, placement options and optimizer (the
// passes of runtime/passes/, as for any plan), and runs that plan per call on the
// calling thread.
#pragma once

#include <memory>
#include <mutex>

#include "absl/container/flat_hash_map.h"
#include "rill/core/function.h"
#include "rill/runtime/optimize_options.h"
#include "rill/runtime/placer.h"

namespace rill {

class SessionFunctionRuntime final : public FunctionRuntime {
 public:
  struct Options {
    const DeviceSet* devices = nullptr;
    const PlacementOptions* placement = nullptr;
    ResourceMgr* resources = nullptr;
    bool allow_tf32 = false;
    OptimizeOptions optimize;
    bool plan_memory = true;
  };
  explicit SessionFunctionRuntime(Options options) : options_(options) {}

  absl::StatusOr<std::shared_ptr<const FunctionCall>> Instantiate(const FunctionRef& f) override;

 private:
  Options options_;
  std::mutex mu_;  // serialises planning; placements of function nodes live here
  PlacementMap placed_;
  ColocationGroups groups_;
  absl::flat_hash_map<const Function*, std::shared_ptr<const FunctionCall>> cache_;
};

}  // namespace rill
