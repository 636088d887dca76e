#include "rill/core/dso_loader.h"

#include <dlfcn.h>

namespace rill::dso {

absl::StatusOr<void*> Open(const char* library) {
  void* lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (lib != nullptr) return lib;
  const char* why = dlerror();
  return errors::FailedPrecondition(
      library, " could not be loaded: ", why != nullptr ? why : "no reason given");
}

absl::StatusOr<void*> Symbol(void* lib, const char* library, const char* symbol) {
  void* address = dlsym(lib, symbol);
  if (address != nullptr) return address;
  return errors::FailedPrecondition(library, " has no ", symbol,
                                    " (older than the version rill was built against?)");
}

}  // namespace rill::dso
