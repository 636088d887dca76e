#include "rill/runtime/io/attr_text.h"

#include <limits>
#include <optional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "rill/core/op_registry.h"
#include "rill/core/status.h"

namespace rill {
namespace {

template <typename T>
std::string ValueToText(T v) {
  if constexpr (std::is_same_v<T, float>) {
    return text::FormatFloat(v);
  } else if constexpr (std::is_same_v<T, double>) {
    return text::FormatDouble(v);
  } else if constexpr (std::is_same_v<T, bool>) {
    return v ? "true" : "false";
  } else if constexpr (std::is_unsigned_v<T>) {
    return absl::StrCat(static_cast<uint64_t>(v));  // all of uint64's range
  } else {
    return absl::StrCat(static_cast<int64_t>(v));  // int8 as a number, not a character
  }
}

absl::StatusOr<std::string> TensorToText(const Tensor& t) {
  if (!t.IsInitialized()) return errors::FailedPrecondition("an uninitialized tensor");
  if (!t.OnHost()) return errors::FailedPrecondition("a tensor that is not on the host");
  std::string out = absl::StrCat("tensor { dtype: ", DataTypeString(t.dtype()),
                                 " shape: ", ShapeToText(t.shape()), " values: [");
  VisitDataType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = static_cast<const T*>(t.data());
    for (int64_t i = 0; i < t.NumElements(); ++i) {
      if (i > 0) out += ", ";
      out += ValueToText(p[i]);
    }
  });
  out += "] }";
  return out;
}

absl::Status ElementError(const text::Field& f, DataType dt, const text::Scalar& s) {
  return errors::InvalidArgument("line ", f.line, ": '", s.text, "' is not a valid ",
                                 DataTypeString(dt), " value");
}

template <typename T>
absl::Status ParseElement(const text::Scalar& s, const text::Field& f, DataType dt, T* out) {
  if constexpr (std::is_same_v<T, bool>) {
    RILL_ASSIGN_OR_RETURN(*out, text::ScalarToBool(s, f));
  } else if constexpr (std::is_floating_point_v<T>) {
    RILL_ASSIGN_OR_RETURN(double v, text::ScalarToDouble(s, f));
    *out = static_cast<T>(v);
  } else if constexpr (std::is_unsigned_v<T>) {  // up to 2^64 - 1, no sign
    uint64_t v = 0;
    if (s.kind != text::Scalar::kNumber || !absl::SimpleAtoi(s.text, &v) ||
        v > std::numeric_limits<T>::max()) {
      return ElementError(f, dt, s);
    }
    *out = static_cast<T>(v);
  } else {
    absl::StatusOr<int64_t> v = text::ScalarToInt(s, f);
    if (!v.ok() || *v < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
        *v > static_cast<int64_t>(std::numeric_limits<T>::max())) {
      return ElementError(f, dt, s);
    }
    *out = static_cast<T>(*v);
  }
  return absl::OkStatus();
}

absl::StatusOr<DataType> TypeFromScalar(const text::Scalar& s, const text::Field& f) {
  DataType dt = s.kind == text::Scalar::kWord ? DataTypeFromString(s.text) : DT_INVALID;
  if (dt == DT_INVALID) {
    return errors::InvalidArgument("line ", f.line, ": '", s.text, "' is not a dtype");
  }
  return dt;
}

absl::StatusOr<Tensor> TensorFromText(const text::Field& f) {
  RILL_ASSIGN_OR_RETURN(const text::Message* m, text::AsMessage(f));
  DataType dt = DT_INVALID;
  std::optional<PartialTensorShape> shape;
  const text::Field* values = nullptr;
  for (const text::Field& g : m->fields) {
    if (g.name == "dtype" && dt == DT_INVALID && g.kind == text::Field::kScalar) {
      RILL_ASSIGN_OR_RETURN(dt, TypeFromScalar(g.scalar, g));
    } else if (g.name == "shape" && !shape) {
      RILL_ASSIGN_OR_RETURN(shape, ShapeFromText(g));
    } else if (g.name == "values" && values == nullptr) {
      values = &g;
    } else {
      return errors::InvalidArgument("line ", g.line, ": unexpected or repeated '", g.name,
                                     "' in a tensor");
    }
  }
  if (dt == DT_INVALID || !shape || values == nullptr) {
    return errors::InvalidArgument("line ", f.line, ": a tensor needs dtype, shape and values");
  }
  if (!shape->IsFullyDefined()) {
    return errors::InvalidArgument("line ", f.line, ": a tensor's shape must be fully known, got ",
                                   shape->DebugString());
  }
  absl::StatusOr<TensorShape> full = TensorShape::Build(shape->dim_sizes());
  if (!full.ok()) return errors::Annotate(full.status(), absl::StrCat("line ", f.line, ": "));
  const int64_t count = text::ItemCount(*values);
  if (count != full->num_elements()) {
    return errors::InvalidArgument("line ", values->line, ": a tensor of shape ",
                                   full->DebugString(), " needs ", full->num_elements(),
                                   " values, got ", count);
  }
  // Each value takes at least two bytes of the file ("1,"), so the tensor is at most four
  // times the text that declares it; its items are read one at a time.
  RILL_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(dt, *full));
  absl::Status st;
  VisitDataType(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(t.data());
    int64_t i = 0;
    st = text::ForEachItem(
        *values, [&](const text::Scalar& s) { return ParseElement(s, *values, dt, &p[i++]); });
  });
  RILL_RETURN_IF_ERROR(st);
  return t;
}

}  // namespace

std::string ShapeToText(const PartialTensorShape& s) {
  if (s.unknown_rank()) return "unknown";
  return absl::StrCat("[", absl::StrJoin(s.dim_sizes(), ", "), "]");
}

absl::StatusOr<PartialTensorShape> ShapeFromText(const text::Field& f) {
  if (f.kind == text::Field::kScalar && f.scalar.kind == text::Scalar::kWord &&
      f.scalar.text == "unknown") {
    return PartialTensorShape::UnknownRank();
  }
  if (f.kind != text::Field::kList) {
    return errors::InvalidArgument("line ", f.line, ": '", f.name,
                                   "' must be a list of dims or 'unknown'");
  }
  if (f.list_size > kMaxTensorRank) {
    return errors::InvalidArgument("line ", f.line, ": rank ", f.list_size, " exceeds ",
                                   kMaxTensorRank);
  }
  std::vector<int64_t> dims;
  RILL_RETURN_IF_ERROR(text::ForEachItem(f, [&](const text::Scalar& s) -> absl::Status {
    RILL_ASSIGN_OR_RETURN(int64_t d, text::ScalarToInt(s, f));
    if (d < -1) return errors::InvalidArgument("line ", f.line, ": dim ", d, " is below -1");
    dims.push_back(d);
    return absl::OkStatus();
  }));
  return PartialTensorShape(absl::MakeConstSpan(dims));
}

absl::StatusOr<std::string> AttrToText(const AttrValue& v) {
  switch (KindOf(v)) {
    case AttrKind::kInt:
      return absl::StrCat("i: ", std::get<int64_t>(v));
    case AttrKind::kFloat:
      return absl::StrCat("f: ", text::FormatFloat(std::get<float>(v)));
    case AttrKind::kBool:
      return absl::StrCat("b: ", std::get<bool>(v) ? "true" : "false");
    case AttrKind::kType:
      return absl::StrCat("type: ", DataTypeString(std::get<DataType>(v)));
    case AttrKind::kString:
      return absl::StrCat("s: ", text::Quote(std::get<std::string>(v)));
    case AttrKind::kIntList:
      return absl::StrCat("list: [", absl::StrJoin(std::get<std::vector<int64_t>>(v), ", "), "]");
    case AttrKind::kShape:
      return absl::StrCat("shape: ", ShapeToText(std::get<PartialTensorShape>(v)));
    case AttrKind::kTensor:
      return TensorToText(std::get<Tensor>(v));
    case AttrKind::kTypeList: {
      std::vector<std::string> names;
      for (DataType t : std::get<std::vector<DataType>>(v)) names.push_back(DataTypeString(t));
      return absl::StrCat("types: [", absl::StrJoin(names, ", "), "]");
    }
    case AttrKind::kFloatList: {
      std::vector<std::string> items;
      for (float f : std::get<std::vector<float>>(v)) items.push_back(text::FormatFloat(f));
      return absl::StrCat("floats: [", absl::StrJoin(items, ", "), "]");
    }
    case AttrKind::kStringList: {
      std::vector<std::string> items;
      for (const std::string& s : std::get<std::vector<std::string>>(v)) {
        items.push_back(text::Quote(s));
      }
      return absl::StrCat("strings: [", absl::StrJoin(items, ", "), "]");
    }
    case AttrKind::kFunc:  // written by the graph writer, which names the functions
      return errors::FailedPrecondition("a function attribute is written with its library");
  }
  return errors::Internal("unknown attribute kind");
}

absl::StatusOr<AttrValue> AttrFromText(const text::Field& f) {
  if (f.name == "i") return text::AsInt(f);
  if (f.name == "f" && f.kind == text::Field::kScalar) {
    RILL_ASSIGN_OR_RETURN(double d, text::ScalarToDouble(f.scalar, f));
    return static_cast<float>(d);
  }
  if (f.name == "b" && f.kind == text::Field::kScalar) return text::ScalarToBool(f.scalar, f);
  if (f.name == "type" && f.kind == text::Field::kScalar) return TypeFromScalar(f.scalar, f);
  if (f.name == "s") return text::AsString(f);
  if (f.name == "list" && f.kind == text::Field::kList) {
    std::vector<int64_t> out;
    out.reserve(static_cast<size_t>(f.list_size));  // 8 bytes an item of >= 2 in the file
    RILL_RETURN_IF_ERROR(text::ForEachItem(f, [&](const text::Scalar& s) -> absl::Status {
      RILL_ASSIGN_OR_RETURN(int64_t v, text::ScalarToInt(s, f));
      out.push_back(v);
      return absl::OkStatus();
    }));
    return out;
  }
  if (f.name == "floats" && f.kind == text::Field::kList) {
    std::vector<float> out;
    out.reserve(static_cast<size_t>(f.list_size));  // 4 bytes an item of >= 2 in the file
    RILL_RETURN_IF_ERROR(text::ForEachItem(f, [&](const text::Scalar& s) -> absl::Status {
      RILL_ASSIGN_OR_RETURN(double v, text::ScalarToDouble(s, f));
      out.push_back(static_cast<float>(v));
      return absl::OkStatus();
    }));
    return out;
  }
  if (f.name == "strings" && f.kind == text::Field::kList) {
    std::vector<std::string> out;
    RILL_RETURN_IF_ERROR(text::ForEachItem(f, [&](const text::Scalar& s) -> absl::Status {
      if (s.kind != text::Scalar::kString) {
        return errors::InvalidArgument("line ", f.line, ": strings: items must be quoted");
      }
      out.push_back(s.text);
      return absl::OkStatus();
    }));
    return out;
  }
  if (f.name == "types" && f.kind == text::Field::kList) {
    std::vector<DataType> out;
    RILL_RETURN_IF_ERROR(text::ForEachItem(f, [&](const text::Scalar& s) -> absl::Status {
      if (out.size() >= static_cast<size_t>(kMaxOutputListLength)) {
        return errors::InvalidArgument("line ", f.line, ": more than ", kMaxOutputListLength,
                                       " types");
      }
      RILL_ASSIGN_OR_RETURN(DataType t, TypeFromScalar(s, f));
      out.push_back(t);
      return absl::OkStatus();
    }));
    return out;
  }
  if (f.name == "shape") return ShapeFromText(f);
  if (f.name == "tensor") return TensorFromText(f);
  return errors::InvalidArgument(
      "line ", f.line, ": '", f.name,
      "' is not an attribute value (i, f, b, type, s, list, floats, strings, types, shape, "
      "tensor or func) of the right form");
}

}  // namespace rill
