// Libraries rill loads when first needed instead of linking (cuBLAS, NCCL): a program that
// never uses them does not map them or run their start-up code, and a machine without
// them still runs everything else. Loaded libraries stay for the process's life.
#pragma once

#include "absl/status/statusor.h"
#include "rill/core/status.h"

namespace rill::dso {

// dlopen(library) with its symbols bound now and kept local to it; FailedPrecondition
// with the loader's message when it cannot be loaded.
absl::StatusOr<void*> Open(const char* library);

// The address of `symbol` in `lib` (opened as `library`); FailedPrecondition naming both
// when it has none (a version older than the one rill was built against).
absl::StatusOr<void*> Symbol(void* lib, const char* library, const char* symbol);

// Symbol, as the function pointer type the caller's header declares.
template <typename F>
absl::Status Find(void* lib, const char* library, const char* symbol, F* f) {
  RILL_ASSIGN_OR_RETURN(void* address, Symbol(lib, library, symbol));
  *f = reinterpret_cast<F>(address);
  return absl::OkStatus();
}

}  // namespace rill::dso
