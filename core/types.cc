#include "rill/core/types.h"

#include "absl/strings/string_view.h"
#include "rill/core/status.h"

namespace rill {

DataType DataTypeFromString(const std::string& name) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_UINT8, DT_INT64, DT_BOOL, DT_COMPLEX64,
                      DT_INT8, DT_INT16, DT_UINT16, DT_UINT32, DT_UINT64}) {
    if (DataTypeString(dt) == name) return dt;
  }
  return DT_INVALID;
}

std::string DataTypeString(DataType dt) {
  switch (dt) {
    case DT_FLOAT:
      return "float";
    case DT_DOUBLE:
      return "double";
    case DT_INT32:
      return "int32";
    case DT_INT64:
      return "int64";
    case DT_UINT8:
      return "uint8";
    case DT_INT8:
      return "int8";
    case DT_INT16:
      return "int16";
    case DT_UINT16:
      return "uint16";
    case DT_UINT32:
      return "uint32";
    case DT_UINT64:
      return "uint64";
    case DT_BOOL:
      return "bool";
    case DT_COMPLEX64:
      return "complex64";
    default:
      return absl::StrCat("invalid(", static_cast<int>(dt), ")");
  }
}

int DataTypeSize(DataType dt) {
  switch (dt) {
    case DT_FLOAT:
      return 4;
    case DT_DOUBLE:
      return 8;
    case DT_INT32:
      return 4;
    case DT_INT64:
      return 8;
    case DT_UINT8:
    case DT_INT8:
      return 1;
    case DT_INT16:
    case DT_UINT16:
      return 2;
    case DT_UINT32:
      return 4;
    case DT_UINT64:
      return 8;
    case DT_BOOL:
      return 1;
    case DT_COMPLEX64:
      return 8;
    default:
      return 0;
  }
}

bool DataTypeIsFloating(DataType dt) { return dt == DT_FLOAT || dt == DT_DOUBLE; }
bool DataTypeIsInteger(DataType dt) {
  switch (dt) {
    case DT_INT8:
    case DT_INT16:
    case DT_INT32:
    case DT_INT64:
    case DT_UINT8:
    case DT_UINT16:
    case DT_UINT32:
    case DT_UINT64:
      return true;
    default:
      return false;
  }
}
bool DataTypeIsValid(DataType dt) { return DataTypeSize(dt) > 0; }

namespace errors {
absl::Status Annotate(const absl::Status& s, absl::string_view prefix) {
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat(prefix, s.message()));
}
}  // namespace errors

}  // namespace rill
