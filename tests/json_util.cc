#include "json_util.h"

#include <cctype>
#include <cstdlib>

#include "absl/strings/str_cat.h"

namespace rill::testing {
namespace {

class JsonParser {
 public:
  explicit JsonParser(const std::string& s) : s_(s) {}

  absl::StatusOr<Json> Document() {
    Json v;
    if (!Value(&v, 0)) return Error();
    Space();
    if (pos_ != s_.size()) return Error();
    return v;
  }

 private:
  absl::Status Error() const {
    return absl::InvalidArgumentError(absl::StrCat("malformed JSON at byte ", pos_));
  }
  void Space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool Eat(char c) {
    Space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool Literal(const char* word) {
    size_t n = std::char_traits<char>::length(word);
    if (s_.compare(pos_, n, word) != 0) return false;
    pos_ += n;
    return true;
  }
  bool String(std::string* out) {
    if (!Eat('"')) return false;
    while (pos_ < s_.size()) {
      char c = s_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (pos_ >= s_.size()) return false;
      char e = s_[pos_++];
      if (e == 'u') {
        if (pos_ + 4 > s_.size()) return false;
        for (int i = 0; i < 4; ++i) {
          if (!std::isxdigit(static_cast<unsigned char>(s_[pos_ + i]))) return false;
        }
        out->push_back(static_cast<char>(std::strtol(s_.substr(pos_, 4).c_str(), nullptr, 16)));
        pos_ += 4;
      } else if (e == 'n') {
        out->push_back('\n');
      } else if (e == '"' || e == '\\' || e == '/') {
        out->push_back(e);
      } else if (e == 't') {
        out->push_back('\t');
      } else {
        return false;
      }
    }
    return false;
  }
  bool Value(Json* v, int depth) {
    if (depth > 64) return false;
    Space();
    if (pos_ >= s_.size()) return false;
    char c = s_[pos_];
    if (c == '{') {
      ++pos_;
      v->kind = Json::kObject;
      if (Eat('}')) return true;
      do {
        std::string key;
        Json item;
        if (!String(&key) || !Eat(':') || !Value(&item, depth + 1)) return false;
        if (!v->object.emplace(std::move(key), std::move(item)).second) return false;
      } while (Eat(','));
      return Eat('}');
    }
    if (c == '[') {
      ++pos_;
      v->kind = Json::kArray;
      if (Eat(']')) return true;
      do {
        Json item;
        if (!Value(&item, depth + 1)) return false;
        v->array.push_back(std::move(item));
      } while (Eat(','));
      return Eat(']');
    }
    if (c == '"') {
      v->kind = Json::kString;
      return String(&v->str);
    }
    if (Literal("true")) {
      v->kind = Json::kBool;
      v->b = true;
      return true;
    }
    if (Literal("false")) {
      v->kind = Json::kBool;
      return true;
    }
    if (Literal("null")) return true;
    const char* start = s_.c_str() + pos_;
    char* end = nullptr;
    v->number = std::strtod(start, &end);
    if (end == start || !(std::isdigit(static_cast<unsigned char>(*start)) || *start == '-')) {
      return false;
    }
    v->kind = Json::kNumber;
    pos_ += static_cast<size_t>(end - start);
    return true;
  }

  const std::string& s_;
  size_t pos_ = 0;
};

}  // namespace

absl::StatusOr<Json> ParseJson(const std::string& text) { return JsonParser(text).Document(); }

}  // namespace rill::testing
