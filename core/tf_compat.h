// TensorFlow's spellings for a program ported from TensorFlow's C++ API, opt-in: its
// macros (TF_RETURN_IF_ERROR, TF_CHECK_OK, CHECK_EQ, LOG), its platform type names
// (int32, int64, string, gtl::ArraySlice) and random::New64. rill's own spellings are
// RILL_RETURN_IF_ERROR and RILL_ASSIGN_OR_RETURN (core/status.h); rill never aborts on a
// bad Status by itself, while TF_CHECK_OK and CHECK do, because a ported program asked.
//   #include "rill/core/tf_compat.h"
//   TF_RETURN_IF_ERROR(session.Run({y}, &out));
#pragma once

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/types/span.h"
#include "rill/core/status.h"
#include "rill/core/tf_compat_logging.h"

namespace rill {
// tensorflow/core/platform/types.h's names.
using int8 = std::int8_t;
using int16 = std::int16_t;
using int32 = std::int32_t;
using int64 = std::int64_t;
using uint8 = std::uint8_t;
using uint16 = std::uint16_t;
using uint32 = std::uint32_t;
using uint64 = std::uint64_t;
using string = std::string;
// TensorFlow's StringPiece: an absl::string_view (as TensorFlow's is since 2.x) that keeps
// the members of its older API that ported programs and tests still call (Consume,
// contains, starts_with, ends_with).
class StringPiece : public absl::string_view {
 public:
  using Base = absl::string_view;
  using Base::Base;
  StringPiece(Base s) : Base(s) {}                // NOLINT
  StringPiece(const std::string& s) : Base(s) {}  // NOLINT
  // Drops `prefix` from the front and returns true when the piece starts with it.
  bool Consume(absl::string_view prefix) { return absl::ConsumePrefix(this, prefix); }
  bool contains(absl::string_view s) const { return find(s) != npos; }
  bool starts_with(absl::string_view s) const { return absl::StartsWith(*this, s); }
  bool ends_with(absl::string_view s) const { return absl::EndsWith(*this, s); }
};
namespace gtl {
template <typename T>
using ArraySlice = absl::Span<const T>;
template <typename T>
using MutableArraySlice = absl::Span<T>;
}  // namespace gtl
namespace strings {
// printf into a std::string (tensorflow/core/lib/strings/stringprintf.h).
__attribute__((format(printf, 1, 2))) inline std::string Printf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list again;
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::string out(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(out.data(), out.size() + 1, format, again);
  va_end(again);
  return out;
}
}  // namespace strings
namespace random {
// A uniformly random 64-bit value (tensorflow/core/lib/random/random.h), safe to call
// from any thread; seeded once per process from std::random_device.
inline uint64 New64() {
  static std::mutex mu;
  static std::mt19937_64 engine{std::random_device{}()};
  std::lock_guard<std::mutex> lock(mu);
  return engine();
}
}  // namespace random

// TensorFlow's TensorFormat (util/tensor_format.h): the layouts rill's ops name by their
// data_format strings.
enum TensorFormat { FORMAT_NHWC = 0, FORMAT_NCHW = 1 };
inline std::string ToString(TensorFormat format) { return format == FORMAT_NCHW ? "NCHW" : "NHWC"; }
}  // namespace rill

#define TF_RETURN_IF_ERROR(expr) RILL_RETURN_IF_ERROR(expr)
#define TF_ASSIGN_OR_RETURN(lhs, expr) RILL_ASSIGN_OR_RETURN(lhs, expr)

namespace rill::compat_internal {
// Prints where and what, then aborts: TF_CHECK_OK's contract.
[[noreturn]] inline void CheckOkFailed(const char* file, int line, const char* expr,
                                       const absl::Status& s) {
  std::fprintf(stderr, "%s:%d: TF_CHECK_OK(%s) failed: %s\n", file, line, expr,
               s.ToString().c_str());
  std::abort();
}
}  // namespace rill::compat_internal

#define TF_CHECK_OK(expr)                                                                    \
  do {                                                                                       \
    const ::absl::Status rill_check_status_ = (expr);                                        \
    if (!rill_check_status_.ok()) {                                                          \
      ::rill::compat_internal::CheckOkFailed(__FILE__, __LINE__, #expr, rill_check_status_); \
    }                                                                                        \
  } while (0)
#ifdef NDEBUG
#define TF_DCHECK_OK(expr) \
  do {                     \
  } while (0)
#else
#define TF_DCHECK_OK(expr) TF_CHECK_OK(expr)
#endif
