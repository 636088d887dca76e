#include "rill/core/tensor_shape.h"

#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "rill/core/checked_math.h"
#include "rill/core/status.h"

namespace rill {

int64_t MultiplyWithoutOverflow(int64_t a, int64_t b) {
  if (a < 0 || b < 0) return -1;
  return checked::Mul(a, b).value_or(-1);
}

TensorShape::TensorShape(std::initializer_list<int64_t> dims)
    : TensorShape(absl::Span<const int64_t>(dims.begin(), dims.size())) {}

TensorShape::TensorShape(absl::Span<const int64_t> dims) : dims_(dims.begin(), dims.end()) {
  Recompute();
}

absl::StatusOr<TensorShape> TensorShape::Build(absl::Span<const int64_t> dims) {
  TensorShape s(dims);
  if (!s.valid()) return s.status();
  return s;
}

void TensorShape::Recompute() {
  status_ = absl::OkStatus();
  num_elements_ = 1;
  if (dims_.size() > static_cast<size_t>(kMaxTensorRank)) {
    status_ = errors::InvalidArgument("shape ", DebugString(), " has rank ", dims_.size(),
                                      "; at most ", kMaxTensorRank, " dims are supported");
    num_elements_ = 0;
    return;
  }
  for (int64_t d : dims_) {
    if (d < 0) {
      status_ = errors::InvalidArgument("shape ", DebugString(), " has a negative dimension");
      num_elements_ = 0;
      return;
    }
  }
  for (int64_t d : dims_) {
    int64_t n = MultiplyWithoutOverflow(num_elements_, d);
    if (n < 0) {
      status_ =
          errors::InvalidArgument("shape ", DebugString(), " has more elements than fit in int64");
      num_elements_ = 0;
      return;
    }
    num_elements_ = n;
  }
}

void TensorShape::AddDim(int64_t size) {
  dims_.push_back(size);
  Recompute();
}
void TensorShape::InsertDim(int d, int64_t size) {
  dims_.insert(dims_.begin() + d, size);
  Recompute();
}
void TensorShape::RemoveDim(int d) {
  dims_.erase(dims_.begin() + d);
  Recompute();
}
void TensorShape::set_dim(int d, int64_t size) {
  dims_[d] = size;
  Recompute();
}

std::string TensorShape::DebugString() const {
  return absl::StrCat("[", absl::StrJoin(dims_, ","), "]");
}

PartialTensorShape::PartialTensorShape(std::initializer_list<int64_t> dims)
    : dims_(dims.begin(), dims.end()), unknown_rank_(false) {}
PartialTensorShape::PartialTensorShape(absl::Span<const int64_t> dims)
    : dims_(dims.begin(), dims.end()), unknown_rank_(false) {}
PartialTensorShape::PartialTensorShape(const TensorShape& shape)
    : dims_(shape.dim_sizes().begin(), shape.dim_sizes().end()), unknown_rank_(false) {}

absl::StatusOr<PartialTensorShape> PartialTensorShape::Build(absl::Span<const int64_t> dims) {
  if (dims.size() > static_cast<size_t>(kMaxTensorRank)) {
    return errors::InvalidArgument("shape of rank ", dims.size(), " has more than ", kMaxTensorRank,
                                   " dims");
  }
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < -1) return errors::InvalidArgument("dimension ", d, " is invalid (use -1 for unknown)");
    if (d >= 0) n = MultiplyWithoutOverflow(n, d);
    if (n < 0) return errors::InvalidArgument("shape's element count overflows int64");
  }
  return PartialTensorShape(dims);
}

PartialTensorShape PartialTensorShape::UnknownOfRank(int rank) {
  PartialTensorShape s;
  if (rank < 0) return s;  // a caller's rank arithmetic went below 0: say nothing of the rank
  s.unknown_rank_ = false;
  s.dims_.assign(rank, -1);
  return s;
}

bool PartialTensorShape::IsFullyDefined() const {
  if (unknown_rank_) return false;
  for (int64_t d : dims_)
    if (d < 0) return false;
  return true;
}

absl::StatusOr<TensorShape> PartialTensorShape::AsTensorShape() const {
  if (!IsFullyDefined()) {
    return errors::InvalidArgument("shape ", DebugString(), " is not fully defined");
  }
  return TensorShape::Build(dims_);
}

bool PartialTensorShape::IsCompatibleWith(const TensorShape& shape) const {
  if (unknown_rank_) return true;
  if (static_cast<int>(dims_.size()) != shape.dims()) return false;
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (dims_[i] >= 0 && dims_[i] != shape.dim_size(static_cast<int>(i))) return false;
  }
  return true;
}

bool PartialTensorShape::IsCompatibleWith(const PartialTensorShape& other) const {
  if (unknown_rank_ || other.unknown_rank_) return true;
  if (dims_.size() != other.dims_.size()) return false;
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (dims_[i] >= 0 && other.dims_[i] >= 0 && dims_[i] != other.dims_[i]) return false;
  }
  return true;
}

std::string PartialTensorShape::DebugString() const {
  if (unknown_rank_) return "<unknown>";
  std::string s = "[";
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (i) s += ",";
    s += dims_[i] < 0 ? "?" : absl::StrCat(dims_[i]);
  }
  return s + "]";
}

}  // namespace rill
