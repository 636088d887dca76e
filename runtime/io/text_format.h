// A small protobuf-text-like format, the syntax under rill's graph files:
//
//   # a comment
//   version: 1
//   node {
//     name: "x"
//     attr { key: "shape" shape: [-1, 3] }
//   }
//
// A message is a sequence of fields; a field is `name: value`, `name: [v, v, ...]` or
// `name { message }`. Values are quoted strings (C escapes), numbers (inf and nan too) and
// bare words. Parsing checks syntax only and turns every malformed input into an
// InvalidArgument naming the line; what the fields mean is the reader's business.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace rill::text {

struct Scalar {
  enum Kind { kString, kNumber, kWord };
  Kind kind = kWord;
  std::string text;  // unescaped for strings; as written for numbers and words
};

struct Message;

struct Field {
  std::string name;
  int line = 0;
  enum Kind { kScalar, kList, kMessage };
  Kind kind = kScalar;
  Scalar scalar;  // kScalar
  // kList: the items' text between the brackets (checked by Parse), read one item at a
  // time by ForEachItem. A list keeps no item in memory: a file of a million numbers
  // costs the file, not a million strings.
  absl::string_view list_text;
  int64_t list_size = 0;
  int list_line = 0;                 // the line of the first item
  std::unique_ptr<Message> message;  // kMessage
};

struct Message {
  std::vector<Field> fields;
};

// Limits that keep a hostile file from exhausting the stack.
inline constexpr int kMaxDepth = 16;

// The Message refers into `text` (its lists), which must outlive it.
absl::StatusOr<Message> Parse(absl::string_view text);

// Typed access to one field, with errors that name field and line.
absl::StatusOr<std::string> AsString(const Field& f);
absl::StatusOr<std::string> AsWord(const Field& f);
absl::StatusOr<int64_t> AsInt(const Field& f);
absl::StatusOr<int64_t> ScalarToInt(const Scalar& s, const Field& f);
absl::StatusOr<double> ScalarToDouble(const Scalar& s, const Field& f);
absl::StatusOr<bool> ScalarToBool(const Scalar& s, const Field& f);
absl::StatusOr<const Message*> AsMessage(const Field& f);
// Calls `fn` on every item of a list field in order (a single scalar counts as a list of
// one), stopping at the first error.
absl::Status ForEachItem(const Field& f, const std::function<absl::Status(const Scalar&)>& fn);
// The number of items ForEachItem visits; -1 for a message.
int64_t ItemCount(const Field& f);

// The escapes shared with JSON: quote, backslash, newline, tab, carriage return.
const char* SimpleEscape(char c);  // "\\n" for '\n', ...; nullptr for any other char
char SimpleUnescape(char e);       // '\n' for 'n', ...; 0 for any other

// Writing: a quoted, escaped string; numbers that read back to the same value.
std::string Quote(absl::string_view s);
std::string FormatFloat(float v);
std::string FormatDouble(double v);

}  // namespace rill::text
