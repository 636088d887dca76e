// Element types. Enum values match TensorFlow's so that DT_FLOAT means the same thing.
#pragma once

#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>

namespace rill {

using complex64 = std::complex<float>;

enum DataType : int {
  DT_INVALID = 0,
  DT_FLOAT = 1,
  DT_DOUBLE = 2,
  DT_INT32 = 3,
  DT_UINT8 = 4,
  DT_INT16 = 5,
  DT_INT8 = 6,
  // Complex tensors hold values on the host (Tensor, flat<complex64>(), test::AsTensor)
  // but no op takes them: rill has no complex kernels, so an op's type check refuses
  // complex64 with InvalidArgument, naming the op (docs/guide.md, Porting).
  DT_COMPLEX64 = 8,
  DT_INT64 = 9,
  DT_BOOL = 10,
  DT_UINT16 = 17,
  DT_UINT32 = 22,
  DT_UINT64 = 23,
};

std::string DataTypeString(DataType dt);  // "float", "double", "int32", ...
int DataTypeSize(DataType dt);            // bytes per element; 0 for DT_INVALID
bool DataTypeIsFloating(DataType dt);
bool DataTypeIsInteger(DataType dt);
bool DataTypeIsValid(DataType dt);
// The inverse of DataTypeString; DT_INVALID for a name that is not a valid dtype.
DataType DataTypeFromString(const std::string& name);

template <typename T>
struct DataTypeToEnum {
  static_assert(sizeof(T) == 0, "unsupported element type");
};
#define RILL_MATCH_TYPE_AND_ENUM(TYPE, ENUM)       \
  template <>                                      \
  struct DataTypeToEnum<TYPE> {                    \
    static constexpr DataType value = ENUM;        \
    static constexpr DataType v() { return ENUM; } \
  }
RILL_MATCH_TYPE_AND_ENUM(float, DT_FLOAT);
RILL_MATCH_TYPE_AND_ENUM(double, DT_DOUBLE);
RILL_MATCH_TYPE_AND_ENUM(int32_t, DT_INT32);
RILL_MATCH_TYPE_AND_ENUM(int64_t, DT_INT64);
RILL_MATCH_TYPE_AND_ENUM(uint8_t, DT_UINT8);
RILL_MATCH_TYPE_AND_ENUM(int8_t, DT_INT8);
RILL_MATCH_TYPE_AND_ENUM(int16_t, DT_INT16);
RILL_MATCH_TYPE_AND_ENUM(uint16_t, DT_UINT16);
RILL_MATCH_TYPE_AND_ENUM(uint32_t, DT_UINT32);
RILL_MATCH_TYPE_AND_ENUM(uint64_t, DT_UINT64);
RILL_MATCH_TYPE_AND_ENUM(bool, DT_BOOL);
RILL_MATCH_TYPE_AND_ENUM(complex64, DT_COMPLEX64);
#undef RILL_MATCH_TYPE_AND_ENUM

template <typename T>
struct TypeTag {
  using type = T;
};

// Calls f(TypeTag<T>{}) for the C++ type of `dt`, a real (non-complex) type; returns false
// for DT_INVALID and DT_COMPLEX64 (no computation in rill takes complex numbers).
template <typename F>
bool VisitDataType(DataType dt, F&& f) {
  switch (dt) {
    case DT_FLOAT:
      f(TypeTag<float>{});
      return true;
    case DT_DOUBLE:
      f(TypeTag<double>{});
      return true;
    case DT_INT32:
      f(TypeTag<int32_t>{});
      return true;
    case DT_INT64:
      f(TypeTag<int64_t>{});
      return true;
    case DT_UINT8:
      f(TypeTag<uint8_t>{});
      return true;
    case DT_INT8:
      f(TypeTag<int8_t>{});
      return true;
    case DT_INT16:
      f(TypeTag<int16_t>{});
      return true;
    case DT_UINT16:
      f(TypeTag<uint16_t>{});
      return true;
    case DT_UINT32:
      f(TypeTag<uint32_t>{});
      return true;
    case DT_UINT64:
      f(TypeTag<uint64_t>{});
      return true;
    case DT_BOOL:
      f(TypeTag<bool>{});
      return true;
    default:
      return false;
  }
}

}  // namespace rill
