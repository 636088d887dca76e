// Status helpers shared by every layer: early-return macros and error builders that
// name what failed. Anything a user can reach returns absl::Status; these keep that terse.
// TensorFlow's names are here too (rill::Status, rill::StatusOr, errors::X and
// errors::IsX); its macro spellings (TF_RETURN_IF_ERROR, TF_CHECK_OK) are opt-in, in
// rill/core/tf_compat.h.
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

namespace rill {

// TensorFlow's own status types are Abseil's since TF 2.13; so are rill's.
using Status = absl::Status;
template <typename T>
using StatusOr = absl::StatusOr<T>;
inline Status OkStatus() { return absl::OkStatus(); }

}  // namespace rill

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
template <typename... Args>
absl::Status Cancelled(const Args&... args) {
  return absl::CancelledError(absl::StrCat(args...));
}
template <typename... Args>
absl::Status Unknown(const Args&... args) {
  return absl::UnknownError(absl::StrCat(args...));
}
template <typename... Args>
absl::Status DeadlineExceeded(const Args&... args) {
  return absl::DeadlineExceededError(absl::StrCat(args...));
}
template <typename... Args>
absl::Status PermissionDenied(const Args&... args) {
  return absl::PermissionDeniedError(absl::StrCat(args...));
}
template <typename... Args>
absl::Status Aborted(const Args&... args) {
  return absl::AbortedError(absl::StrCat(args...));
}
template <typename... Args>
absl::Status OutOfRange(const Args&... args) {
  return absl::OutOfRangeError(absl::StrCat(args...));
}
template <typename... Args>
absl::Status Unavailable(const Args&... args) {
  return absl::UnavailableError(absl::StrCat(args...));
}
template <typename... Args>
absl::Status Unauthenticated(const Args&... args) {
  return absl::UnauthenticatedError(absl::StrCat(args...));
}

// TensorFlow's predicates: errors::IsNotFound(s) and the like.
inline bool IsInvalidArgument(const absl::Status& s) { return absl::IsInvalidArgument(s); }
inline bool IsFailedPrecondition(const absl::Status& s) { return absl::IsFailedPrecondition(s); }
inline bool IsNotFound(const absl::Status& s) { return absl::IsNotFound(s); }
inline bool IsInternal(const absl::Status& s) { return absl::IsInternal(s); }
inline bool IsUnimplemented(const absl::Status& s) { return absl::IsUnimplemented(s); }
inline bool IsResourceExhausted(const absl::Status& s) { return absl::IsResourceExhausted(s); }
inline bool IsAlreadyExists(const absl::Status& s) { return absl::IsAlreadyExists(s); }
inline bool IsDataLoss(const absl::Status& s) { return absl::IsDataLoss(s); }
inline bool IsCancelled(const absl::Status& s) { return absl::IsCancelled(s); }
inline bool IsUnknown(const absl::Status& s) { return absl::IsUnknown(s); }
inline bool IsDeadlineExceeded(const absl::Status& s) { return absl::IsDeadlineExceeded(s); }
inline bool IsPermissionDenied(const absl::Status& s) { return absl::IsPermissionDenied(s); }
inline bool IsAborted(const absl::Status& s) { return absl::IsAborted(s); }
inline bool IsOutOfRange(const absl::Status& s) { return absl::IsOutOfRange(s); }
inline bool IsUnavailable(const absl::Status& s) { return absl::IsUnavailable(s); }
inline bool IsUnauthenticated(const absl::Status& s) { return absl::IsUnauthenticated(s); }

// Same code, message prefixed with context ("node 'x' (MatMul): ...").
absl::Status Annotate(const absl::Status& s, absl::string_view prefix);

}  // namespace rill::errors

// TensorFlow's code names (error::INVALID_ARGUMENT), for `status.code() == error::X`.
namespace rill::error {
using Code = absl::StatusCode;
inline constexpr Code OK = absl::StatusCode::kOk;
inline constexpr Code CANCELLED = absl::StatusCode::kCancelled;
inline constexpr Code UNKNOWN = absl::StatusCode::kUnknown;
inline constexpr Code INVALID_ARGUMENT = absl::StatusCode::kInvalidArgument;
inline constexpr Code DEADLINE_EXCEEDED = absl::StatusCode::kDeadlineExceeded;
inline constexpr Code NOT_FOUND = absl::StatusCode::kNotFound;
inline constexpr Code ALREADY_EXISTS = absl::StatusCode::kAlreadyExists;
inline constexpr Code PERMISSION_DENIED = absl::StatusCode::kPermissionDenied;
inline constexpr Code RESOURCE_EXHAUSTED = absl::StatusCode::kResourceExhausted;
inline constexpr Code FAILED_PRECONDITION = absl::StatusCode::kFailedPrecondition;
inline constexpr Code ABORTED = absl::StatusCode::kAborted;
inline constexpr Code OUT_OF_RANGE = absl::StatusCode::kOutOfRange;
inline constexpr Code UNIMPLEMENTED = absl::StatusCode::kUnimplemented;
inline constexpr Code INTERNAL = absl::StatusCode::kInternal;
inline constexpr Code UNAVAILABLE = absl::StatusCode::kUnavailable;
inline constexpr Code DATA_LOSS = absl::StatusCode::kDataLoss;
inline constexpr Code UNAUTHENTICATED = absl::StatusCode::kUnauthenticated;
}  // namespace rill::error
