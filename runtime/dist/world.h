// The engine of this process, for the collective kernels (null before dist::Init).
#pragma once

#include "rill/runtime/dist/engine.h"

namespace rill::dist {
Engine* GetEngine();
}  // namespace rill::dist
