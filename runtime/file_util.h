// Whole-file reads and crash-safe writes, shared by checkpoints, graph files, traces and
// the data readers.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace rill {

// Writes `bytes` to a temporary file beside `path` (a name of its own per call, so
// concurrent writers in one or many processes never share it), flushes it to disk and
// renames it over `path`: readers always find the old file or a new one, whole. `what`
// names the file's kind in errors ("checkpoint", "graph file"). FailedPrecondition when
// `path` is a directory or its directory cannot be written.
absl::Status WriteFileAtomically(const std::string& path, absl::string_view bytes,
                                 absl::string_view what);

// Whether WriteFileAtomically(path) could write there now, by creating and removing a
// file beside it: InvalidArgument for an empty path, FailedPrecondition for a directory,
// a missing folder or no permission (naming the path).
absl::Status CheckWritable(const std::string& path, absl::string_view what);

// The whole file. NotFound when it cannot be opened; FailedPrecondition for a directory
// or anything else that is not a regular file; ResourceExhausted when it is larger than
// `max_bytes` (checked before anything is read) or memory is short.
absl::StatusOr<std::string> ReadFileToString(const std::string& path, absl::string_view what,
                                             int64_t max_bytes = int64_t{1} << 31);

}  // namespace rill
