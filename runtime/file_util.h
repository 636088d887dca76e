// Whole-file reads and crash-safe writes, shared by checkpoints and graph files.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace rill {

// Writes `bytes` to a temporary file beside `path`, flushes it to disk and renames it
// over `path`, so a crash leaves either the old file or the new one. `what` names the
// file's kind in errors ("checkpoint", "graph file").
absl::Status WriteFileAtomically(const std::string& path, absl::string_view bytes,
                                 absl::string_view what);

// NotFound when the file cannot be opened.
absl::StatusOr<std::string> ReadFileToString(const std::string& path, absl::string_view what);

}  // namespace rill
