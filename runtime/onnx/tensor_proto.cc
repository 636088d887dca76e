#include "rill/runtime/onnx/tensor_proto.h"

#include <cstring>

#include "rill/core/status.h"
#include "rill/runtime/onnx/converter.h"

namespace rill::onnx::internal {
namespace {

using ::onnx::TensorProto;

// The typed field that holds values of ONNX dtype `t` when raw_data is not used, and its
// element count.
int64_t TypedCount(const TensorProto& p, DataType dt) {
  switch (dt) {
    case DT_FLOAT:
      return p.float_data_size();
    case DT_DOUBLE:
      return p.double_data_size();
    case DT_INT64:
      return p.int64_data_size();
    case DT_UINT32:
    case DT_UINT64:
      return p.uint64_data_size();
    default:  // int32, the narrower integers and bool travel in int32_data
      return p.int32_data_size();
  }
}

template <typename T>
void CopyTyped(const TensorProto& p, Tensor* t) {
  T* out = t->flat<T>().data();
  const int64_t n = t->NumElements();
  if constexpr (std::is_same_v<T, float>) {
    for (int64_t i = 0; i < n; ++i) out[i] = p.float_data(i);
  } else if constexpr (std::is_same_v<T, double>) {
    for (int64_t i = 0; i < n; ++i) out[i] = p.double_data(i);
  } else if constexpr (std::is_same_v<T, int64_t>) {
    for (int64_t i = 0; i < n; ++i) out[i] = p.int64_data(i);
  } else if constexpr (std::is_same_v<T, bool>) {
    for (int64_t i = 0; i < n; ++i) out[i] = p.int32_data(i) != 0;
  } else if constexpr (std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>) {
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(p.uint64_data(i));
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(p.int32_data(i));
  }
}

absl::StatusOr<TensorShape> ShapeOf(const TensorProto& p, const std::string& what) {
  std::vector<int64_t> dims(p.dims().begin(), p.dims().end());
  absl::StatusOr<TensorShape> shape = TensorShape::Build(dims);
  if (!shape.ok()) {
    return errors::InvalidArgument(what, " has an invalid shape: ", shape.status().message());
  }
  return shape;
}

}  // namespace

absl::StatusOr<Tensor> TensorFromProto(const TensorProto& p, const std::string& what) {
  if (p.data_location() == TensorProto::EXTERNAL || p.external_data_size() > 0) {
    return errors::InvalidArgument(what, " keeps its data in an external file, which rill ",
                                   "does not read; save the model with its data inside");
  }
  if (p.has_segment()) return errors::InvalidArgument(what, " is a segment of a tensor");
  const DataType dt = FromOnnxType(p.data_type());
  if (dt == DT_INVALID) {
    return errors::InvalidArgument(what, " has dtype ", OnnxTypeName(p.data_type()),
                                   ", which rill does not support");
  }
  RILL_ASSIGN_OR_RETURN(TensorShape shape, ShapeOf(p, what));
  const int64_t n = shape.num_elements();
  if (p.has_raw_data()) {
    // n is at most the data's size in bytes before it is multiplied, so nothing overflows.
    const size_t have = p.raw_data().size();
    const size_t bytes =
        n <= static_cast<int64_t>(have) ? static_cast<size_t>(n) * DataTypeSize(dt) : have + 1;
    if (have != bytes) {
      return errors::InvalidArgument(what, " of shape ", shape.DebugString(), " holds ", have,
                                     " bytes of raw data, not ", n, " ", DataTypeString(dt),
                                     " values of ", DataTypeSize(dt), " bytes");
    }
    Tensor t(dt, shape);
    if (bytes > 0) std::memcpy(t.data(), p.raw_data().data(), bytes);
    if (dt == DT_BOOL) {  // a byte other than 0 or 1 is not a valid bool
      auto* b = static_cast<uint8_t*>(t.data());
      for (int64_t i = 0; i < n; ++i) b[i] = b[i] != 0;
    }
    return t;
  }
  if (TypedCount(p, dt) != n) {
    return errors::InvalidArgument(what, " of shape ", shape.DebugString(), " holds ",
                                   TypedCount(p, dt), " values, not ", n);
  }
  Tensor t(dt, shape);
  VisitDataType(dt, [&](auto tag) { CopyTyped<typename decltype(tag)::type>(p, &t); });
  return t;
}

absl::Status TensorToProto(const Tensor& t, TensorProto* p) {
  const int32_t type = ToOnnxType(t.dtype());
  if (type == TensorProto::UNDEFINED) {
    return errors::InvalidArgument("dtype ", DataTypeString(t.dtype()),
                                   " has no ONNX counterpart rill writes");
  }
  p->set_data_type(type);
  p->clear_dims();
  for (int64_t d : t.shape().dim_sizes()) p->add_dims(d);
  p->set_raw_data(static_cast<const char*>(t.data()), t.TotalBytes());
  return absl::OkStatus();
}

}  // namespace rill::onnx::internal
