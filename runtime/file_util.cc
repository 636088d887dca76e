#include "rill/runtime/file_util.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "rill/core/status.h"

namespace rill {

absl::Status WriteFileAtomically(const std::string& path, absl::string_view bytes,
                                 absl::string_view what) {
  const std::string tmp = absl::StrCat(path, ".tmp.", getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    return errors::FailedPrecondition("cannot write ", what, " '", tmp,
                                      "': ", std::strerror(errno));
  }
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      int e = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return errors::ResourceExhausted("writing ", what, " '", tmp, "' failed: ", std::strerror(e));
    }
    done += static_cast<size_t>(w);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    ::unlink(tmp.c_str());
    return errors::Internal("flushing ", what, " '", tmp, "' failed: ", std::strerror(errno));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    return errors::Internal("renaming '", tmp, "' to '", path, "' failed: ", std::strerror(errno));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadFileToString(const std::string& path, absl::string_view what) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return errors::NotFound(what, " '", path, "' cannot be opened");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace rill
