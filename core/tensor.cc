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
  return *this;
}

Tensor& Tensor::operator=(Tensor&& o) noexcept {
  if (this != &o) {
    if (buf_) buf_->Unref();
    dtype_ = o.dtype_;
    shape_ = std::move(o.shape_);
    buf_ = std::exchange(o.buf_, nullptr);
  }
  return *this;
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
  if (want == dtype_ && shape_ok && Viewable()) return true;
  std::fprintf(stderr,
               "rill: typed access to a tensor that does not fit it (tensor: %s %s%s; asked "
               "for %s of rank %d); returning an empty view\n",
               DataTypeString(dtype_).c_str(), shape_.DebugString().c_str(),
               IsInitialized() ? "" : ", not initialized", DataTypeString(want).c_str(), rank);
  return false;
}

absl::Status Tensor::CheckView(DataType want, int rank) const {
  const bool shape_ok = rank < 0 ? true : rank == 0 ? NumElements() == 1 : dims() == rank;
  if (want == dtype_ && shape_ok && Viewable()) return absl::OkStatus();
  const std::string asked = rank < 0    ? "a flat view"
                            : rank == 0 ? "a scalar"
                                        : absl::StrCat("a view of rank ", rank);
  return errors::InvalidArgument(
      "cannot read a tensor of dtype ", DataTypeString(dtype_), " and shape ", shape_.DebugString(),
      IsInitialized() ? "" : " (not initialized)", " as ", asked, " of ", DataTypeString(want));
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
