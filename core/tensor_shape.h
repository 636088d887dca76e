// Shapes. TensorShape is fully known and overflow-checked: an invalid one (a negative
// dim, an element count past int64, too many dims) carries the reason in status() and
// every consumer refuses it with that Status. PartialTensorShape allows unknown dims (-1)
// or an unknown rank, as placeholders need.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "rill/core/limits.h"

namespace rill {

class TensorShape {
 public:
  TensorShape() = default;  // a scalar
  TensorShape(std::initializer_list<int64_t> dims);
  explicit TensorShape(absl::Span<const int64_t> dims);

  // The checked way in: InvalidArgument for negative dims, overflow or rank > 8.
  static absl::StatusOr<TensorShape> Build(absl::Span<const int64_t> dims);

  const absl::Status& status() const { return status_; }
  bool valid() const { return status_.ok(); }

  int dims() const { return static_cast<int>(dims_.size()); }
  int64_t dim_size(int d) const { return dims_[d]; }
  absl::Span<const int64_t> dim_sizes() const { return dims_; }
  int64_t num_elements() const { return num_elements_; }

  void AddDim(int64_t size);
  void InsertDim(int d, int64_t size);
  void RemoveDim(int d);
  void set_dim(int d, int64_t size);

  bool IsSameSize(const TensorShape& other) const { return dims_ == other.dims_; }
  bool operator==(const TensorShape& other) const { return IsSameSize(other); }
  bool operator!=(const TensorShape& other) const { return !IsSameSize(other); }

  std::string DebugString() const;  // "[2,3]"

 private:
  void Recompute();
  absl::InlinedVector<int64_t, 4> dims_;
  int64_t num_elements_ = 1;
  absl::Status status_;
};

class PartialTensorShape {
 public:
  PartialTensorShape() = default;                           // unknown rank
  PartialTensorShape(std::initializer_list<int64_t> dims);  // -1 = unknown dim
  explicit PartialTensorShape(absl::Span<const int64_t> dims);
  PartialTensorShape(const TensorShape& shape);  // NOLINT: a known shape is a partial one

  static absl::StatusOr<PartialTensorShape> Build(absl::Span<const int64_t> dims);
  static PartialTensorShape UnknownRank() { return PartialTensorShape(); }
  static PartialTensorShape UnknownOfRank(int rank);

  bool unknown_rank() const { return unknown_rank_; }
  int dims() const { return unknown_rank_ ? -1 : static_cast<int>(dims_.size()); }
  int64_t dim_size(int d) const { return dims_[d]; }
  absl::Span<const int64_t> dim_sizes() const { return dims_; }
  bool IsFullyDefined() const;
  // The known shape, or InvalidArgument when some dim or the rank is unknown.
  absl::StatusOr<TensorShape> AsTensorShape() const;
  bool IsCompatibleWith(const TensorShape& shape) const;
  bool IsCompatibleWith(const PartialTensorShape& other) const;
  bool operator==(const PartialTensorShape& o) const {
    return unknown_rank_ == o.unknown_rank_ && dims_ == o.dims_;
  }

  std::string DebugString() const;  // "[?,3]" or "<unknown>"

 private:
  absl::InlinedVector<int64_t, 4> dims_;
  bool unknown_rank_ = true;
};

// Multiplies dims with overflow checks; -1 when the product overflows int64.
int64_t MultiplyWithoutOverflow(int64_t a, int64_t b);

}  // namespace rill
