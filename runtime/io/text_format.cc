#include "rill/runtime/io/text_format.h"

#include <cctype>
#include <cmath>
#include <cstdio>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "rill/core/status.h"

namespace rill::text {
namespace {

struct Token {
  enum Kind { kEnd, kPunct, kString, kNumber, kWord };
  Kind kind = kEnd;
  std::string text;
  int line = 1;
  size_t pos = 0;  // where the token starts in the text
};

bool IsWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '+' ||
         c == '-';
}

class Lexer {
 public:
  explicit Lexer(absl::string_view s, int line = 1) : s_(s), line_(line) {}

  absl::StatusOr<Token> Next() {
    SkipSpaceAndComments();
    Token t;
    t.line = line_;
    t.pos = pos_;
    if (pos_ >= s_.size()) return t;
    const char c = s_[pos_];
    if (c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ',') {
      t.kind = Token::kPunct;
      t.text = std::string(1, c);
      ++pos_;
      return t;
    }
    if (c == '"') return String(t);
    if (IsWordChar(c)) {
      size_t start = pos_;
      while (pos_ < s_.size() && IsWordChar(s_[pos_])) ++pos_;
      t.text = std::string(s_.substr(start, pos_ - start));
      const char f = t.text[0];
      t.kind = (std::isdigit(static_cast<unsigned char>(f)) || f == '-' || f == '+' || f == '.')
                   ? Token::kNumber
                   : Token::kWord;
      return t;
    }
    return errors::InvalidArgument("line ", line_, ": unexpected character ",
                                   std::isprint(static_cast<unsigned char>(c))
                                       ? absl::StrCat("'", std::string(1, c), "'")
                                       : absl::StrCat("with code ", static_cast<int>(c) & 0xff));
  }

 private:
  void SkipSpaceAndComments() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == '#') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

  static int HexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  absl::StatusOr<Token> String(Token t) {
    t.kind = Token::kString;
    ++pos_;  // the opening quote
    while (true) {
      if (pos_ >= s_.size() || s_[pos_] == '\n') {
        return errors::InvalidArgument("line ", t.line, ": unterminated string");
      }
      char c = s_[pos_++];
      if (c == '"') return t;
      if (c != '\\') {
        t.text.push_back(c);
        continue;
      }
      if (pos_ >= s_.size()) break;
      char e = s_[pos_++];
      if (char c = SimpleUnescape(e); c != 0) {
        t.text.push_back(c);
        continue;
      }
      switch (e) {
        case 'x': {
          int hi = pos_ < s_.size() ? HexValue(s_[pos_]) : -1;
          int lo = pos_ + 1 < s_.size() ? HexValue(s_[pos_ + 1]) : -1;
          if (hi < 0 || lo < 0) {
            return errors::InvalidArgument("line ", t.line, ": \\x needs two hex digits");
          }
          t.text.push_back(static_cast<char>(hi * 16 + lo));
          pos_ += 2;
          break;
        }
        default:
          return errors::InvalidArgument("line ", t.line, ": unknown escape \\", std::string(1, e));
      }
    }
    return errors::InvalidArgument("line ", t.line, ": unterminated string");
  }

  absl::string_view s_;
  size_t pos_ = 0;
  int line_;
};

class Parser {
 public:
  explicit Parser(absl::string_view s) : src_(s), lex_(s) {}

  absl::StatusOr<Message> Top() {
    RILL_RETURN_IF_ERROR(Advance());
    Message m;
    RILL_RETURN_IF_ERROR(Body(&m, 0, /*top=*/true));
    return m;
  }

 private:
  absl::Status Advance() {
    RILL_ASSIGN_OR_RETURN(tok_, lex_.Next());
    return absl::OkStatus();
  }
  bool IsPunct(char c) const { return tok_.kind == Token::kPunct && tok_.text[0] == c; }
  absl::Status Expected(absl::string_view what) const {
    std::string got =
        tok_.kind == Token::kEnd ? "the end of the file" : absl::StrCat("'", tok_.text, "'");
    return errors::InvalidArgument("line ", tok_.line, ": expected ", what, ", got ", got);
  }

  absl::Status Body(Message* m, int depth, bool top) {
    while (true) {
      if (tok_.kind == Token::kEnd) {
        if (top) return absl::OkStatus();
        return Expected("'}'");
      }
      if (IsPunct('}')) {
        if (top) return Expected("a field name");
        return absl::OkStatus();
      }
      if (tok_.kind != Token::kWord) return Expected("a field name");
      Field f;
      f.name = tok_.text;
      f.line = tok_.line;
      RILL_RETURN_IF_ERROR(Advance());
      if (IsPunct('{')) {
        if (depth + 1 >= kMaxDepth) {
          return errors::InvalidArgument("line ", f.line, ": messages nested deeper than ",
                                         kMaxDepth);
        }
        RILL_RETURN_IF_ERROR(Advance());
        f.kind = Field::kMessage;
        f.message = std::make_unique<Message>();
        RILL_RETURN_IF_ERROR(Body(f.message.get(), depth + 1, false));
        RILL_RETURN_IF_ERROR(Advance());  // past '}'
      } else if (IsPunct(':')) {
        RILL_RETURN_IF_ERROR(Advance());
        if (IsPunct('[')) {
          f.kind = Field::kList;
          RILL_RETURN_IF_ERROR(List(&f));
        } else {
          RILL_ASSIGN_OR_RETURN(f.scalar, TakeScalar());
        }
      } else {
        return Expected(absl::StrCat("':' or '{' after '", f.name, "'"));
      }
      m->fields.push_back(std::move(f));
    }
  }

  absl::StatusOr<Scalar> TakeScalar() {
    Scalar s;
    switch (tok_.kind) {
      case Token::kString:
        s.kind = Scalar::kString;
        break;
      case Token::kNumber:
        s.kind = Scalar::kNumber;
        break;
      case Token::kWord:
        s.kind = Scalar::kWord;
        break;
      default:
        return Expected("a value");
    }
    s.text = std::move(tok_.text);
    RILL_RETURN_IF_ERROR(Advance());
    return s;
  }

  // Checks the list's syntax and records where its items are; nothing is kept per item.
  absl::Status List(Field* f) {
    RILL_RETURN_IF_ERROR(Advance());  // past '['
    const size_t begin = tok_.pos;
    f->list_line = tok_.line;
    if (IsPunct(']')) return Advance();
    while (true) {
      RILL_RETURN_IF_ERROR(TakeScalar().status());
      ++f->list_size;
      if (IsPunct(']')) {
        f->list_text = src_.substr(begin, tok_.pos - begin);
        return Advance();
      }
      if (!IsPunct(',')) return Expected("',' or ']'");
      RILL_RETURN_IF_ERROR(Advance());
    }
  }

  absl::string_view src_;
  Lexer lex_;
  Token tok_;
};

absl::Status WrongKind(const Field& f, absl::string_view want) {
  return errors::InvalidArgument("line ", f.line, ": '", f.name, "' must be ", want);
}

}  // namespace

absl::StatusOr<Message> Parse(absl::string_view text) { return Parser(text).Top(); }

absl::StatusOr<std::string> AsString(const Field& f) {
  if (f.kind != Field::kScalar || f.scalar.kind != Scalar::kString) {
    return WrongKind(f, "a quoted string");
  }
  return f.scalar.text;
}

absl::StatusOr<std::string> AsWord(const Field& f) {
  if (f.kind != Field::kScalar || f.scalar.kind != Scalar::kWord) return WrongKind(f, "a word");
  return f.scalar.text;
}

absl::StatusOr<int64_t> ScalarToInt(const Scalar& s, const Field& f) {
  int64_t v = 0;
  if (s.kind != Scalar::kNumber || !absl::SimpleAtoi(s.text, &v)) {
    return errors::InvalidArgument("line ", f.line, ": '", f.name,
                                   "' needs a 64-bit integer, got '", s.text, "'");
  }
  return v;
}

absl::StatusOr<double> ScalarToDouble(const Scalar& s, const Field& f) {
  double v = 0;
  bool ok = false;
  if (s.kind == Scalar::kNumber) {
    ok = absl::SimpleAtod(s.text, &v);
  } else if (s.kind == Scalar::kWord) {
    if (s.text == "inf") v = INFINITY, ok = true;
    if (s.text == "nan") v = NAN, ok = true;
  }
  if (!ok) {
    return errors::InvalidArgument("line ", f.line, ": '", f.name, "' needs a number, got '",
                                   s.text, "'");
  }
  return v;
}

absl::StatusOr<bool> ScalarToBool(const Scalar& s, const Field& f) {
  if (s.kind == Scalar::kWord && s.text == "true") return true;
  if (s.kind == Scalar::kWord && s.text == "false") return false;
  return errors::InvalidArgument("line ", f.line, ": '", f.name, "' needs true or false, got '",
                                 s.text, "'");
}

absl::StatusOr<int64_t> AsInt(const Field& f) {
  if (f.kind != Field::kScalar) return WrongKind(f, "an integer");
  return ScalarToInt(f.scalar, f);
}

absl::StatusOr<const Message*> AsMessage(const Field& f) {
  if (f.kind != Field::kMessage) return WrongKind(f, "a message in braces");
  return f.message.get();
}

absl::Status ForEachItem(const Field& f, const std::function<absl::Status(const Scalar&)>& fn) {
  if (f.kind == Field::kScalar) return fn(f.scalar);
  if (f.kind != Field::kList) return WrongKind(f, "a value or a list in brackets");
  // Parse checked this text: scalars separated by commas.
  Lexer lex(f.list_text, f.list_line);
  for (int64_t i = 0; i < f.list_size; ++i) {
    if (i > 0) RILL_RETURN_IF_ERROR(lex.Next().status());  // the comma
    RILL_ASSIGN_OR_RETURN(Token t, lex.Next());
    Scalar s;
    s.kind = t.kind == Token::kString   ? Scalar::kString
             : t.kind == Token::kNumber ? Scalar::kNumber
                                        : Scalar::kWord;
    s.text = std::move(t.text);
    RILL_RETURN_IF_ERROR(fn(s));
  }
  return absl::OkStatus();
}

int64_t ItemCount(const Field& f) {
  if (f.kind == Field::kScalar) return 1;
  return f.kind == Field::kList ? f.list_size : -1;
}

const char* SimpleEscape(char c) {
  switch (c) {
    case '"':
      return "\\\"";
    case '\\':
      return "\\\\";
    case '\n':
      return "\\n";
    case '\t':
      return "\\t";
    case '\r':
      return "\\r";
    default:
      return nullptr;
  }
}

char SimpleUnescape(char e) {
  switch (e) {
    case '"':
      return '"';
    case '\\':
      return '\\';
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case 'r':
      return '\r';
    default:
      return 0;
  }
}

std::string Quote(absl::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (const char* e = SimpleEscape(c)) {
      out += e;
    } else if (std::isprint(static_cast<unsigned char>(c))) {
      out.push_back(c);
    } else {
      char buf[5];
      std::snprintf(buf, sizeof(buf), "\\x%02x", static_cast<unsigned char>(c));
      out += buf;
    }
  }
  out.push_back('"');
  return out;
}

namespace {
template <typename T>
std::string FormatReal(T v, int digits) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.*g", digits, static_cast<double>(v));
  return buf;
}
}  // namespace

std::string FormatFloat(float v) { return FormatReal(v, 9); }
std::string FormatDouble(double v) { return FormatReal(v, 17); }

}  // namespace rill::text
