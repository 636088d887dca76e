// Status helpers shared by every layer: early-return macros and error builders that
// name what failed. Anything a user can reach returns absl::Status; these keep that terse.
#pragma once

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

#define RILL_CONCAT_INNER_(a, b) a##b
#define RILL_CONCAT_(a, b) RILL_CONCAT_INNER_(a, b)

// Returns from the enclosing function when `expr` yields a non-OK status.
#define RILL_RETURN_IF_ERROR(expr)               \
  do {                                           \
    ::absl::Status rill_status_ = (expr);        \
    if (!rill_status_.ok()) return rill_status_; \
  } while (0)

// `lhs = value of expr`, or return its status.
#define RILL_ASSIGN_OR_RETURN(lhs, expr) \
  RILL_ASSIGN_OR_RETURN_IMPL_(RILL_CONCAT_(rill_statusor_, __LINE__), lhs, expr)
#define RILL_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                \
  if (!tmp.ok()) return tmp.status();               \
  lhs = std::move(tmp).value()

namespace rill::errors {

template <typename... Args>
absl::Status InvalidArgument(const Args&... args) {
  return absl::InvalidArgumentError(absl::StrCat(args...));
}
template <typename... Args>
absl::Status FailedPrecondition(const Args&... args) {
  return absl::FailedPreconditionError(absl::StrCat(args...));
}
template <typename... Args>
absl::Status NotFound(const Args&... args) {
  return absl::NotFoundError(absl::StrCat(args...));
}
template <typename... Args>
absl::Status Internal(const Args&... args) {
  return absl::InternalError(absl::StrCat(args...));
}
template <typename... Args>
absl::Status Unimplemented(const Args&... args) {
  return absl::UnimplementedError(absl::StrCat(args...));
}
template <typename... Args>
absl::Status ResourceExhausted(const Args&... args) {
  return absl::ResourceExhaustedError(absl::StrCat(args...));
}
template <typename... Args>
absl::Status AlreadyExists(const Args&... args) {
  return absl::AlreadyExistsError(absl::StrCat(args...));
}

template <typename... Args>
absl::Status DataLoss(const Args&... args) {
  return absl::DataLossError(absl::StrCat(args...));
}

// Same code, message prefixed with context ("node 'x' (MatMul): ...").
absl::Status Annotate(const absl::Status& s, absl::string_view prefix);

}  // namespace rill::errors
