// TensorFlow's logging and CHECK spellings (tensorflow/core/platform/logging.h) for a
// program ported from TensorFlow, reached through rill/core/tf_compat.h. rill itself never
// aborts on bad input; these do, because the ported program asked for it, exactly where
// TensorFlow's would.
//   CHECK_EQ(outputs.size(), 2) << "one output per fetch";
//   LOG(INFO) << "step " << step;
#pragma once

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

namespace rill::compat_internal {

enum LogSeverity { INFO = 0, WARNING = 1, ERROR = 2, FATAL = 3 };

// One log line: collects what is streamed into it, prints it when the statement ends,
// and aborts after printing when the severity is FATAL.
class LogMessage {
 public:
  LogMessage(const char* file, int line, LogSeverity severity)
      : file_(file), line_(line), severity_(severity) {}
  LogMessage(const LogMessage&) = delete;
  LogMessage& operator=(const LogMessage&) = delete;
  ~LogMessage() {
    static constexpr char kLetters[] = {'I', 'W', 'E', 'F'};
    std::fprintf(stderr, "%c %s:%d] %s\n", kLetters[severity_], file_, line_,
                 stream_.str().c_str());
    if (severity_ == FATAL) std::abort();
  }
  std::ostream& stream() { return stream_; }

 private:
  const char* file_;
  int line_;
  LogSeverity severity_;
  std::ostringstream stream_;
};

// Makes `cond ? (void)0 : Voidify() & stream` one expression, so CHECK(x) << "..." only
// builds its message when the check fails.
struct Voidify {
  void operator&(std::ostream&) {}
};

// a == b and the like, with integers of mixed signedness compared by value (as
// TensorFlow's CHECK_EQ(size_t, int) is), so a ported CHECK neither warns nor lies.
template <typename A, typename B>
constexpr bool CheckEq(const A& a, const B& b) {
  if constexpr (std::is_integral_v<A> && std::is_integral_v<B>)
    return std::cmp_equal(a, b);
  else
    return a == b;
}
template <typename A, typename B>
constexpr bool CheckLt(const A& a, const B& b) {
  if constexpr (std::is_integral_v<A> && std::is_integral_v<B>)
    return std::cmp_less(a, b);
  else
    return a < b;
}

template <typename T>
T CheckNotNull(const char* file, int line, const char* expr, T&& value) {
  if (value == nullptr)
    LogMessage(file, line, FATAL).stream() << "'" << expr << "' Must be non NULL";
  return std::forward<T>(value);
}

}  // namespace rill::compat_internal

#define LOG(severity)                                                                        \
  ::rill::compat_internal::LogMessage(__FILE__, __LINE__, ::rill::compat_internal::severity) \
      .stream()
#define CHECK(condition)                                                                \
  (condition) ? (void)0                                                                 \
              : ::rill::compat_internal::Voidify() &                                    \
                    ::rill::compat_internal::LogMessage(__FILE__, __LINE__,             \
                                                        ::rill::compat_internal::FATAL) \
                            .stream()                                                   \
                        << "Check failed: " #condition " "
#define RILL_COMPAT_CHECK_OP_(test, a, b, text) \
  CHECK(::rill::compat_internal::test(a, b)) << "(" << (a) << " " text " " << (b) << ") "
#define CHECK_EQ(a, b) RILL_COMPAT_CHECK_OP_(CheckEq, a, b, "vs.")
#define CHECK_NE(a, b) CHECK(!::rill::compat_internal::CheckEq(a, b))
#define CHECK_LT(a, b) RILL_COMPAT_CHECK_OP_(CheckLt, a, b, "vs.")
#define CHECK_GT(a, b) RILL_COMPAT_CHECK_OP_(CheckLt, b, a, "vs.")
#define CHECK_LE(a, b) CHECK(!::rill::compat_internal::CheckLt(b, a))
#define CHECK_GE(a, b) CHECK(!::rill::compat_internal::CheckLt(a, b))
#define CHECK_NOTNULL(value) \
  ::rill::compat_internal::CheckNotNull(__FILE__, __LINE__, #value, (value))
#ifdef NDEBUG
#define DCHECK(condition) \
  while (false) CHECK(condition)
#else
#define DCHECK(condition) CHECK(condition)
#endif
#define DCHECK_EQ(a, b) DCHECK(::rill::compat_internal::CheckEq(a, b))
#define DCHECK_NE(a, b) DCHECK(!::rill::compat_internal::CheckEq(a, b))
#define DCHECK_LT(a, b) DCHECK(::rill::compat_internal::CheckLt(a, b))
#define DCHECK_GE(a, b) DCHECK(!::rill::compat_internal::CheckLt(a, b))
