// Device names, parsed as TensorFlow parses them: "/CPU:0", "/cpu:0", "/device:GPU:0",
// "/GPU:*", "/job:localhost/replica:0/task:0/device:CPU:0". Unset parts match anything.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace rill {

inline constexpr char DEVICE_CPU[] = "CPU";
inline constexpr char DEVICE_GPU[] = "GPU";

struct DeviceName {
  std::string job;   // empty: any
  int replica = -1;  // -1: any
  int task = -1;     // -1: any
  std::string type;  // "CPU", "GPU", or empty: any
  int id = -1;       // -1: any ("*")

  // InvalidArgument that quotes the string and the accepted forms.
  static absl::StatusOr<DeviceName> Parse(absl::string_view name);
  // A concrete device's full name: "/job:localhost/replica:0/task:0/device:CPU:0".
  static std::string Full(absl::string_view type, int id);

  bool IsEmpty() const { return job.empty() && replica < 0 && task < 0 && type.empty() && id < 0; }
  // True when this (possibly partial) spec accepts the concrete device `d`.
  bool Matches(const DeviceName& d) const;
  std::string ToString() const;  // the canonical form of what is set
};

}  // namespace rill
