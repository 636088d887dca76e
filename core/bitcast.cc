#include "rill/core/bitcast.h"

#include <vector>

#include "rill/core/status.h"

namespace rill {

absl::StatusOr<PartialTensorShape> BitcastShape(const PartialTensorShape& in, DataType from,
                                                DataType to) {
  const int64_t a = DataTypeSize(from), b = DataTypeSize(to);
  if (a == b) return in;
  if (in.unknown_rank()) return PartialTensorShape();
  std::vector<int64_t> dims(in.dim_sizes().begin(), in.dim_sizes().end());
  if (a > b) {
    dims.push_back(a / b);
    return PartialTensorShape(dims);
  }
  if (dims.empty() || (dims.back() >= 0 && dims.back() != b / a)) {
    return errors::InvalidArgument("cannot bitcast ", DataTypeString(from), " ", in.DebugString(),
                                   " to ", DataTypeString(to), ": its last dim must be ", b / a,
                                   " (", b, " bytes of ", DataTypeString(to), " from ", a,
                                   "-byte elements)");
  }
  dims.pop_back();
  return PartialTensorShape(dims);
}

}  // namespace rill
