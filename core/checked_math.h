// Overflow-checked int64 arithmetic for every size computed from user values: shape
// rules, kernels' output sizes, readers' declared sizes. A sum or product that would wrap
// is an error naming what was computed, never a small number that passes later checks.
#pragma once

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rill/core/status.h"

namespace rill::checked {

// nullopt when the exact result does not fit in int64.
inline std::optional<int64_t> Add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}
inline std::optional<int64_t> Sub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
  return r;
}
inline std::optional<int64_t> Mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// The same as a Status: InvalidArgument "<what> (a + b) overflows int64".
inline absl::StatusOr<int64_t> AddOr(int64_t a, int64_t b, absl::string_view what) {
  if (auto r = Add(a, b)) return *r;
  return errors::InvalidArgument(what, " (", a, " + ", b, ") overflows int64");
}
inline absl::StatusOr<int64_t> SubOr(int64_t a, int64_t b, absl::string_view what) {
  if (auto r = Sub(a, b)) return *r;
  return errors::InvalidArgument(what, " (", a, " - ", b, ") overflows int64");
}
inline absl::StatusOr<int64_t> MulOr(int64_t a, int64_t b, absl::string_view what) {
  if (auto r = Mul(a, b)) return *r;
  return errors::InvalidArgument(what, " (", a, " * ", b, ") overflows int64");
}

// ceil(a / b) for a >= 0, b > 0, without forming a + b - 1.
inline int64_t CeilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

}  // namespace rill::checked
