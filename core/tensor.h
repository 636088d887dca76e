// Tensor: a dtype, a shape and a refcounted buffer on some device. Copies share the
// buffer; element access goes through Eigen TensorMaps as in TensorFlow (flat<T>(),
// matrix<T>(), scalar<T>()). A Tensor whose shape was invalid or whose allocation failed
// is not initialized (IsInitialized() is false) and every op refuses it with a Status.
#pragma once

#include <cassert>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

#include "absl/status/statusor.h"
#include "rill/core/allocator.h"
#include "rill/core/tensor_shape.h"
#include "rill/core/types.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace rill {

template <typename T, int NDIMS = 1>
struct TTypes {
  using Tensor =
      Eigen::TensorMap<Eigen::Tensor<T, NDIMS, Eigen::RowMajor, Eigen::DenseIndex>, Eigen::Aligned>;
  using ConstTensor =
      Eigen::TensorMap<Eigen::Tensor<const T, NDIMS, Eigen::RowMajor, Eigen::DenseIndex>,
                       Eigen::Aligned>;
  using Flat =
      Eigen::TensorMap<Eigen::Tensor<T, 1, Eigen::RowMajor, Eigen::DenseIndex>, Eigen::Aligned>;
  using ConstFlat = Eigen::TensorMap<Eigen::Tensor<const T, 1, Eigen::RowMajor, Eigen::DenseIndex>,
                                     Eigen::Aligned>;
  using Vec = Flat;
  using ConstVec = ConstFlat;
  using Matrix =
      Eigen::TensorMap<Eigen::Tensor<T, 2, Eigen::RowMajor, Eigen::DenseIndex>, Eigen::Aligned>;
  using ConstMatrix =
      Eigen::TensorMap<Eigen::Tensor<const T, 2, Eigen::RowMajor, Eigen::DenseIndex>,
                       Eigen::Aligned>;
  using Scalar = Eigen::TensorMap<
      Eigen::TensorFixedSize<T, Eigen::Sizes<>, Eigen::RowMajor, Eigen::DenseIndex>,
      Eigen::Aligned>;
  using ConstScalar = Eigen::TensorMap<
      Eigen::TensorFixedSize<const T, Eigen::Sizes<>, Eigen::RowMajor, Eigen::DenseIndex>,
      Eigen::Aligned>;
  // For tensors that may not be aligned (a Slice or SubSlice of another), as TensorFlow's.
  using UnalignedTensor =
      Eigen::TensorMap<Eigen::Tensor<T, NDIMS, Eigen::RowMajor, Eigen::DenseIndex>>;
  using UnalignedConstTensor =
      Eigen::TensorMap<Eigen::Tensor<const T, NDIMS, Eigen::RowMajor, Eigen::DenseIndex>>;
  using UnalignedFlat = Eigen::TensorMap<Eigen::Tensor<T, 1, Eigen::RowMajor, Eigen::DenseIndex>>;
  using UnalignedConstFlat =
      Eigen::TensorMap<Eigen::Tensor<const T, 1, Eigen::RowMajor, Eigen::DenseIndex>>;
};

class Tensor {
 public:
  // As TensorFlow's Tensor(): float, shape [0] (NumElements() 0), with no buffer (not
  // initialized: a Variable holding one has no value yet).
  Tensor() = default;
  Tensor(DataType dtype, const TensorShape& shape);  // on the CPU
  Tensor(Allocator* allocator, DataType dtype, const TensorShape& shape);
  explicit Tensor(float v);
  explicit Tensor(double v);
  explicit Tensor(int32_t v);
  explicit Tensor(int64_t v);
  explicit Tensor(uint8_t v);
  explicit Tensor(bool v);
  explicit Tensor(complex64 v);

  // The checked constructor: InvalidArgument for a bad shape or dtype,
  // ResourceExhausted when the memory is not there.
  static absl::StatusOr<Tensor> Create(DataType dtype, const TensorShape& shape,
                                       Allocator* allocator = nullptr);

  // A Tensor over `buffer`, taking over one reference to it; the buffer holds at least
  // the shape's bytes (the caller checked). How planned outputs get their arena memory.
  static Tensor Adopt(DataType dtype, const TensorShape& shape, TensorBuffer* buffer);

  Tensor(const Tensor& o) : dtype_(o.dtype_), shape_(o.shape_), buf_(o.buf_), offset_(o.offset_) {
    if (buf_) buf_->Ref();
  }
  Tensor(Tensor&& o) noexcept
      : dtype_(o.dtype_),
        shape_(std::move(o.shape_)),
        buf_(std::exchange(o.buf_, nullptr)),
        offset_(std::exchange(o.offset_, 0)) {}
  Tensor& operator=(const Tensor& o);
  Tensor& operator=(Tensor&& o) noexcept;
  ~Tensor() {
    if (buf_) buf_->Unref();
  }

  DataType dtype() const { return dtype_; }
  const TensorShape& shape() const { return shape_; }
  int dims() const { return shape_.dims(); }
  int64_t dim_size(int d) const { return shape_.dim_size(d); }
  int64_t NumElements() const { return shape_.num_elements(); }
  size_t TotalBytes() const { return static_cast<size_t>(NumElements()) * DataTypeSize(dtype_); }
  bool IsInitialized() const { return buf_ != nullptr; }
  bool OnHost() const { return buf_ == nullptr || buf_->allocator()->OnHost(); }
  bool RefCountIsOne() const { return buf_ != nullptr && buf_->RefCountIsOne(); }
  // Whether exactly n Tensors hold the buffer (for an owner that keeps a reference of its own).
  bool RefCountIs(int n) const { return buf_ != nullptr && buf_->RefCountIs(n); }
  bool SharesBufferWith(const Tensor& o) const { return buf_ != nullptr && buf_ == o.buf_; }
  Allocator* allocator() const { return buf_ ? buf_->allocator() : nullptr; }

  void* data() const { return buf_ ? static_cast<char*>(buf_->data()) + offset_ : nullptr; }
  // Whether the data starts where Eigen's aligned views may read it (always, but for a
  // Slice or SubSlice that starts inside its buffer); TensorFlow's IsAligned.
  bool IsAligned() const {
    return reinterpret_cast<uintptr_t>(data()) % EIGEN_MAX_ALIGN_BYTES == 0;
  }

  // TensorFlow's slices of dim 0, sharing this tensor's buffer: rows [start, limit)
  // (Slice, the same rank) or row `index` without dim 0 (SubSlice). Indices outside dim 0
  // (or a scalar) are a programming error: a debug build asserts; a release build logs a
  // line and returns no rows. The result may not be aligned: read it with unaligned_flat,
  // or copy it (feeds and Const values that are not aligned are copied when they enter a
  // graph, so kernels always get aligned data).
  Tensor Slice(int64_t start, int64_t limit) const;
  Tensor SubSlice(int64_t index) const;
  // This tensor, or a copy in a buffer of its own when it is a host tensor that is not
  // aligned: what a graph takes in (feeds, Const values).
  Tensor AlignedForKernels() const { return IsAligned() || !OnHost() ? *this : DeepCopy(); }
  template <typename T>
  T* base() const {
    return static_cast<T*>(data());
  }

  // Same buffer, another shape of the same element count; false when they differ.
  bool CopyFrom(const Tensor& other, const TensorShape& shape);
  // A copy with its own host buffer.
  Tensor DeepCopy() const;

  // Typed views, as TensorFlow's. A view that does not fit the tensor (another dtype,
  // another rank, too few elements) is a programming error: a debug build asserts; a
  // release build logs a line and maps zero elements, so it can never read out of
  // bounds. The checked_* forms below return that mistake as a Status instead.
  template <typename T>
  typename TTypes<T>::Flat flat() {
    return shaped<T, 1>({NumElements()});
  }
  template <typename T>
  typename TTypes<T>::ConstFlat flat() const {
    return shaped<T, 1>({NumElements()});
  }
  template <typename T>
  typename TTypes<T>::Vec vec() {
    return tensor<T, 1>();
  }
  template <typename T>
  typename TTypes<T>::ConstVec vec() const {
    return tensor<T, 1>();
  }
  template <typename T>
  typename TTypes<T>::Matrix matrix() {
    return tensor<T, 2>();
  }
  template <typename T>
  typename TTypes<T>::ConstMatrix matrix() const {
    return tensor<T, 2>();
  }
  template <typename T>
  typename TTypes<T>::Scalar scalar() {
    return typename TTypes<T>::Scalar(ScalarBase<T>());
  }
  template <typename T>
  typename TTypes<T>::ConstScalar scalar() const {
    return typename TTypes<T>::ConstScalar(ScalarBase<T>());
  }
  template <typename T, int N>
  typename TTypes<T, N>::Tensor tensor() {
    const auto d = OwnDims<T, N>();
    return typename TTypes<T, N>::Tensor(ViewBase<T, N>(d), d);
  }
  template <typename T, int N>
  typename TTypes<T, N>::ConstTensor tensor() const {
    const auto d = OwnDims<T, N>();
    return typename TTypes<T, N>::ConstTensor(ViewBase<T, N>(d), d);
  }
  template <typename T, int N>
  typename TTypes<T, N>::Tensor shaped(std::initializer_list<int64_t> new_dims) {
    const auto d = NewDims<T, N>(new_dims);
    return typename TTypes<T, N>::Tensor(SafeBase<T>(), d);
  }
  template <typename T, int N>
  typename TTypes<T, N>::ConstTensor shaped(std::initializer_list<int64_t> new_dims) const {
    const auto d = NewDims<T, N>(new_dims);
    return typename TTypes<T, N>::ConstTensor(SafeBase<T>(), d);
  }

  // OK when a view of T with `rank` dims fits this tensor; else InvalidArgument naming the
  // tensor's dtype and shape and what was asked. rank -1: any rank (flat).
  absl::Status CheckView(DataType want, int rank) const;
  // The views above, or that Status: for code that cannot trust a tensor's dtype.
  template <typename T>
  absl::StatusOr<typename TTypes<T>::ConstFlat> checked_flat() const {
    return Checked<T>(-1, [this] { return flat<T>(); });
  }
  template <typename T>
  absl::StatusOr<typename TTypes<T>::Flat> checked_flat() {
    return Checked<T>(-1, [this] { return flat<T>(); });
  }
  template <typename T>
  absl::StatusOr<typename TTypes<T>::ConstScalar> checked_scalar() const {
    return Checked<T>(0, [this] { return scalar<T>(); });
  }
  template <typename T>
  absl::StatusOr<typename TTypes<T>::Scalar> checked_scalar() {
    return Checked<T>(0, [this] { return scalar<T>(); });
  }
  template <typename T, int N>
  absl::StatusOr<typename TTypes<T, N>::ConstTensor> checked_tensor() const {
    return Checked<T>(N, [this] { return tensor<T, N>(); });
  }
  template <typename T, int N>
  absl::StatusOr<typename TTypes<T, N>::Tensor> checked_tensor() {
    return Checked<T>(N, [this] { return tensor<T, N>(); });
  }
  template <typename T>
  absl::StatusOr<typename TTypes<T>::ConstVec> checked_vec() const {
    return checked_tensor<T, 1>();
  }
  template <typename T>
  absl::StatusOr<typename TTypes<T>::Vec> checked_vec() {
    return checked_tensor<T, 1>();
  }
  template <typename T>
  absl::StatusOr<typename TTypes<T>::ConstMatrix> checked_matrix() const {
    return checked_tensor<T, 2>();
  }
  template <typename T>
  absl::StatusOr<typename TTypes<T>::Matrix> checked_matrix() {
    return checked_tensor<T, 2>();
  }

  // Views that need no alignment (TensorFlow's unaligned_flat and unaligned_shaped).
  template <typename T>
  typename TTypes<T>::UnalignedFlat unaligned_flat() {
    return unaligned_shaped<T, 1>({NumElements()});
  }
  template <typename T>
  typename TTypes<T>::UnalignedConstFlat unaligned_flat() const {
    return unaligned_shaped<T, 1>({NumElements()});
  }
  template <typename T, int N>
  typename TTypes<T, N>::UnalignedTensor unaligned_shaped(std::initializer_list<int64_t> dims) {
    const auto d = NewDims<T, N>(dims, /*aligned=*/false);
    return typename TTypes<T, N>::UnalignedTensor(SafeBase<T>(), d);
  }
  template <typename T, int N>
  typename TTypes<T, N>::UnalignedConstTensor unaligned_shaped(
      std::initializer_list<int64_t> dims) const {
    const auto d = NewDims<T, N>(dims, /*aligned=*/false);
    return typename TTypes<T, N>::UnalignedConstTensor(SafeBase<T>(), d);
  }

  std::string DebugString() const;  // Tensor<type: float shape: [2] values: 1 2>
  std::string SummarizeValue(int64_t max_entries = 10) const;

 private:
  // Logs and returns false when a typed view does not fit this tensor; the view then maps
  // zero elements. A debug build stops here: the caller has a bug.
  bool CheckAccess(DataType want, int rank, bool shape_ok) const;
  // Typed views need a buffer, except over zero elements (TensorFlow's Tensor() maps);
  // Eigen's aligned views need it aligned too.
  bool Viewable(bool aligned = true) const {
    return IsInitialized() ? !aligned || IsAligned() : NumElements() == 0;
  }
  static void AssertFits(bool ok) {
    assert(ok && "typed view of a tensor that does not fit it (see the line above)");
    (void)ok;
  }
  template <typename T, int N>
  Eigen::array<Eigen::DenseIndex, N> OwnDims() const {
    Eigen::array<Eigen::DenseIndex, N> d;
    for (int i = 0; i < N; ++i) d[i] = i < dims() ? dim_size(i) : 0;
    const bool ok = CheckAccess(DataTypeToEnum<T>::value, N, dims() == N && Viewable());
    AssertFits(ok);
    if (!ok) d.fill(0);
    return d;
  }
  template <typename T, int N>
  Eigen::array<Eigen::DenseIndex, N> NewDims(std::initializer_list<int64_t> new_dims,
                                             bool aligned = true) const {
    Eigen::array<Eigen::DenseIndex, N> d;
    int64_t n = 1, i = 0;
    for (int64_t v : new_dims) {
      if (i < N) d[i] = v;
      ++i;
      n *= v;
    }
    const bool ok =
        CheckAccess(DataTypeToEnum<T>::value, N, i == N && n == NumElements() && Viewable(aligned));
    AssertFits(ok);
    if (!ok) d.fill(0);
    return d;
  }
  // Empty views of a tensor without elements point at a dummy, never at null.
  template <typename T, int N>
  T* ViewBase(const Eigen::array<Eigen::DenseIndex, N>& d) const {
    return d[0] == 0 && N > 0 ? DummyFor<T>() : SafeBase<T>();
  }
  template <typename T>
  T* ScalarBase() const {
    const bool ok = CheckAccess(DataTypeToEnum<T>::value, 0, NumElements() == 1);
    AssertFits(ok);
    return ok ? base<T>() : DummyFor<T>();
  }
  template <typename T>
  T* SafeBase() const {
    return IsInitialized() ? base<T>() : DummyFor<T>();
  }
  template <typename T>
  static T* DummyFor() {
    alignas(kTensorAlignment) static T dummy[1] = {};
    return dummy;
  }
  template <typename T, typename View>
  absl::StatusOr<std::invoke_result_t<View>> Checked(int rank, View view) const {
    absl::Status s = CheckView(DataTypeToEnum<T>::value, rank);
    if (!s.ok()) return s;
    return view();
  }
  void Init(Allocator* a, DataType dtype, const TensorShape& shape);

  DataType dtype_ = DT_FLOAT;
  TensorShape shape_{0};
  TensorBuffer* buf_ = nullptr;
  size_t offset_ = 0;  // bytes into buf_ where this tensor starts (a Slice's)
};

}  // namespace rill
