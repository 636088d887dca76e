// The engine of this process, for the collective kernels (null before dist::Init).
#pragma once

#include "absl/status/statusor.h"
#include "rill/runtime/dist/engine.h"

namespace rill::dist {
Engine* GetEngine();
// The engine, or FailedPrecondition saying to call dist::Init() first.
absl::StatusOr<Engine*> EngineForKernel();
}  // namespace rill::dist
