#include "rill/core/tensor.h"

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "rill/core/status.h"

namespace rill {

void Tensor::Init(Allocator* a, DataType dtype, const TensorShape& shape) {
  dtype_ = dtype;
  shape_ = shape;
  if (!shape.valid() || !DataTypeIsValid(dtype)) return;
  int64_t bytes = MultiplyWithoutOverflow(shape.num_elements(), DataTypeSize(dtype));
  if (bytes < 0) return;
  buf_ = TensorBuffer::Allocate(a, static_cast<size_t>(bytes));
}

Tensor Tensor::Adopt(DataType dtype, const TensorShape& shape, TensorBuffer* buffer) {
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = shape;
  t.buf_ = buffer;
  return t;
}

Tensor::Tensor(DataType dtype, const TensorShape& shape) { Init(cpu_allocator(), dtype, shape); }
Tensor::Tensor(Allocator* a, DataType dtype, const TensorShape& shape) { Init(a, dtype, shape); }

#define RILL_SCALAR_CTOR(TYPE)                                         \
  Tensor::Tensor(TYPE v) {                                             \
    Init(cpu_allocator(), DataTypeToEnum<TYPE>::value, TensorShape()); \
    if (buf_) *base<TYPE>() = v;                                       \
  }
RILL_SCALAR_CTOR(float)
RILL_SCALAR_CTOR(complex64)
RILL_SCALAR_CTOR(double)
RILL_SCALAR_CTOR(int32_t)
RILL_SCALAR_CTOR(int64_t)
RILL_SCALAR_CTOR(uint8_t)
RILL_SCALAR_CTOR(bool)
#undef RILL_SCALAR_CTOR

absl::StatusOr<Tensor> Tensor::Create(DataType dtype, const TensorShape& shape, Allocator* a) {
  if (!DataTypeIsValid(dtype)) return errors::InvalidArgument("invalid dtype ", dtype);
  if (!shape.valid()) return shape.status();
  int64_t bytes = MultiplyWithoutOverflow(shape.num_elements(), DataTypeSize(dtype));
  if (bytes < 0) {
    return errors::InvalidArgument("tensor of shape ", shape.DebugString(), " and dtype ",
                                   DataTypeString(dtype), " needs more bytes than fit in int64");
  }
  Tensor t(a ? a : cpu_allocator(), dtype, shape);
  if (!t.IsInitialized()) {
    return errors::ResourceExhausted(
        "could not allocate ", bytes, " bytes for a ", DataTypeString(dtype), " tensor of shape ",
        shape.DebugString(), " on ", (a ? a : cpu_allocator())->Name());
  }
  return t;
}

Tensor& Tensor::operator=(const Tensor& o) {
  if (o.buf_) o.buf_->Ref();
  if (buf_) buf_->Unref();
  dtype_ = o.dtype_;
  shape_ = o.shape_;
  buf_ = o.buf_;
  offset_ = o.offset_;
  return *this;
}

Tensor& Tensor::operator=(Tensor&& o) noexcept {
  if (this != &o) {
    if (buf_) buf_->Unref();
    dtype_ = o.dtype_;
    shape_ = std::move(o.shape_);
    buf_ = std::exchange(o.buf_, nullptr);
    offset_ = std::exchange(o.offset_, 0);
  }
  return *this;
}

Tensor Tensor::Slice(int64_t start, int64_t limit) const {
  const bool ok = dims() >= 1 && 0 <= start && start <= limit && limit <= dim_size(0);
  if (!ok) {
    std::fprintf(stderr, "rill: Slice(%lld, %lld) of a tensor of shape %s; returning no rows\n",
                 static_cast<long long>(start), static_cast<long long>(limit),
                 shape_.DebugString().c_str());
    AssertFits(false);
    if (dims() == 0) return Tensor(dtype_, TensorShape({0}));
  }
  Tensor t = *this;
  t.shape_.set_dim(0, ok ? limit - start : 0);
  // Rows before `start` are elements of this valid shape, so their bytes fit size_t.
  const int64_t row = dim_size(0) == 0 ? 0 : NumElements() / dim_size(0);
  if (ok) t.offset_ += static_cast<size_t>(start * row) * DataTypeSize(dtype_);
  return t;
}

Tensor Tensor::SubSlice(int64_t index) const {
  if (dims() < 1 || index < 0 || index >= dim_size(0)) {
    std::fprintf(stderr, "rill: SubSlice(%lld) of a tensor of shape %s; returning no elements\n",
                 static_cast<long long>(index), shape_.DebugString().c_str());
    AssertFits(false);
    return Tensor(dtype_, TensorShape({0}));
  }
  Tensor t = Slice(index, index + 1);
  TensorShape row;
  for (int d = 1; d < dims(); ++d) row.AddDim(dim_size(d));
  t.shape_ = row;
  return t;
}

bool Tensor::CopyFrom(const Tensor& other, const TensorShape& shape) {
  if (!shape.valid() || shape.num_elements() != other.NumElements()) return false;
  *this = other;
  shape_ = shape;
  return true;
}

Tensor Tensor::DeepCopy() const {
  Tensor t(dtype_, shape_);
  if (t.IsInitialized() && IsInitialized() && OnHost()) std::memcpy(t.data(), data(), TotalBytes());
  return t;
}

bool Tensor::CheckAccess(DataType want, int rank, bool shape_ok) const {
  if (want == dtype_ && shape_ok && Viewable(/*aligned=*/false)) return true;
  std::fprintf(stderr,
               "rill: typed access to a tensor that does not fit it (tensor: %s %s%s; asked "
               "for %s of rank %d); returning an empty view\n",
               DataTypeString(dtype_).c_str(), shape_.DebugString().c_str(),
               !IsInitialized() ? ", not initialized"
               : IsAligned()    ? ""
                                : ", not aligned: a slice, read with unaligned_flat",
               DataTypeString(want).c_str(), rank);
  return false;
}

absl::Status Tensor::CheckView(DataType want, int rank) const {
  const bool shape_ok = rank < 0 ? true : rank == 0 ? NumElements() == 1 : dims() == rank;
  if (want == dtype_ && shape_ok && Viewable(/*aligned=*/rank != 0)) return absl::OkStatus();
  const std::string asked = rank < 0    ? "a flat view"
                            : rank == 0 ? "a scalar"
                                        : absl::StrCat("a view of rank ", rank);
  return errors::InvalidArgument("cannot read a tensor of dtype ", DataTypeString(dtype_),
                                 " and shape ", shape_.DebugString(),
                                 !IsInitialized() ? " (not initialized)"
                                 : IsAligned()    ? ""
                                                  : " (not aligned: a slice)",
                                 " as ", asked, " of ", DataTypeString(want));
}

std::string Tensor::SummarizeValue(int64_t max_entries) const {
  if (!IsInitialized()) return "<uninitialized>";
  if (!OnHost()) return "<on device>";
  std::string out;
  int64_t n = std::min<int64_t>(NumElements(), max_entries);
  if (dtype_ == DT_COMPLEX64) {
    const complex64* p = base<complex64>();
    for (int64_t i = 0; i < n; ++i) {
      absl::StrAppend(&out, i ? " " : "", "(", p[i].real(), ",", p[i].imag(), ")");
    }
  }
  VisitDataType(dtype_, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = base<T>();
    for (int64_t i = 0; i < n; ++i) {
      if (i) out += " ";
      if constexpr (std::is_same_v<T, bool>) {
        out += p[i] ? "1" : "0";
      } else if constexpr (std::is_same_v<T, uint8_t>) {
        absl::StrAppend(&out, static_cast<int>(p[i]));
      } else {
        absl::StrAppend(&out, p[i]);
      }
    }
  });
  if (NumElements() > n) out += "...";
  return out;
}

std::string Tensor::DebugString() const {
  return absl::StrCat("Tensor<type: ", DataTypeString(dtype_), " shape: ", shape_.DebugString(),
                      " values: ", SummarizeValue(), ">");
}

}  // namespace rill
