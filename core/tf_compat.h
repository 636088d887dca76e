// TensorFlow's macro spellings for a program ported from TensorFlow's C++ API. Opt-in:
// rill's own spellings are RILL_RETURN_IF_ERROR and RILL_ASSIGN_OR_RETURN (core/status.h),
// and rill never aborts on a bad Status by itself; TF_CHECK_OK does, as in TensorFlow,
// because a ported program asked for it.
//   #include "rill/core/tf_compat.h"
//   TF_RETURN_IF_ERROR(session.Run({y}, &out));
#pragma once

#include <cstdio>
#include <cstdlib>

#include "rill/core/status.h"

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
