#include "rill/core/device_name.h"

#include <cctype>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "rill/core/status.h"

namespace rill {
namespace {

bool ParseId(absl::string_view s, int* out) {
  if (s == "*") {
    *out = -1;
    return true;
  }
  int v;
  if (s.empty() || !absl::SimpleAtoi(s, &v) || v < 0) return false;
  *out = v;
  return true;
}

bool ValidType(absl::string_view t) {
  if (t.empty()) return false;
  for (char c : t)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

}  // namespace

absl::StatusOr<DeviceName> DeviceName::Parse(absl::string_view name) {
  DeviceName d;
  auto bad = [&](absl::string_view why) {
    return errors::InvalidArgument("malformed device specification '", name, "' (", why,
                                   "); expected forms like /CPU:0, /device:GPU:0, /GPU:* or "
                                   "/job:localhost/replica:0/task:0/device:CPU:0");
  };
  if (name.empty()) return d;
  if (name[0] != '/') return bad("it must start with '/'");
  std::vector<absl::string_view> parts = absl::StrSplit(name.substr(1), '/');
  for (absl::string_view part : parts) {
    std::vector<absl::string_view> kv = absl::StrSplit(part, ':');
    if (kv.size() == 2 && kv[0] == "job") {
      if (kv[1].empty()) return bad("empty job");
      d.job = std::string(kv[1]);
    } else if (kv.size() == 2 && kv[0] == "replica") {
      if (!ParseId(kv[1], &d.replica)) return bad("replica must be a number");
    } else if (kv.size() == 2 && kv[0] == "task") {
      if (!ParseId(kv[1], &d.task)) return bad("task must be a number");
    } else if (kv.size() >= 2 && kv.size() <= 3 && kv[0] == "device") {
      if (!ValidType(kv[1])) return bad("device type must be a name such as CPU or GPU");
      d.type = absl::AsciiStrToUpper(kv[1]);
      if (kv.size() == 3 && !ParseId(kv[2], &d.id))
        return bad("device index must be a number or *");
    } else if (kv.size() == 2 && ValidType(kv[0])) {  // legacy "/cpu:0", "/GPU:*"
      d.type = absl::AsciiStrToUpper(kv[0]);
      if (!ParseId(kv[1], &d.id)) return bad("device index must be a number or *");
    } else {
      return bad(absl::StrCat("unrecognised part '", part, "'"));
    }
  }
  return d;
}

std::string DeviceName::Full(absl::string_view type, int id) {
  return absl::StrCat("/job:localhost/replica:0/task:0/device:", type, ":", id);
}

bool DeviceName::Matches(const DeviceName& c) const {
  if (!job.empty() && job != c.job) return false;
  if (replica >= 0 && replica != c.replica) return false;
  if (task >= 0 && task != c.task) return false;
  if (!type.empty() && type != c.type) return false;
  if (id >= 0 && id != c.id) return false;
  return true;
}

std::string DeviceName::ToString() const {
  std::string s;
  if (!job.empty()) absl::StrAppend(&s, "/job:", job);
  if (replica >= 0) absl::StrAppend(&s, "/replica:", replica);
  if (task >= 0) absl::StrAppend(&s, "/task:", task);
  if (!type.empty()) absl::StrAppend(&s, "/device:", type, ":", id >= 0 ? absl::StrCat(id) : "*");
  return s;
}

}  // namespace rill
