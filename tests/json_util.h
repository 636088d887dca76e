// A strict, small JSON reader for tests that check files rill writes (Chrome traces).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace rill::testing {

struct Json {
  enum Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = kNull;
  bool b = false;
  double number = 0;
  std::string str;
  std::vector<Json> array;
  std::map<std::string, Json> object;

  bool Has(const std::string& key) const { return object.count(key) > 0; }
  const Json& operator[](const std::string& key) const { return object.at(key); }
};

// InvalidArgument with the byte offset for anything that is not exactly one JSON value.
absl::StatusOr<Json> ParseJson(const std::string& text);

}  // namespace rill::testing
