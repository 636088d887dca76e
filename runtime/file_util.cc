#include "rill/runtime/file_util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>

#include "absl/strings/str_cat.h"
#include "rill/core/status.h"

namespace rill {
namespace {

// Errors the caller can fix (a directory, no permission, no such folder) are theirs;
// the rest is the system's.
absl::Status FileError(int err, absl::string_view doing, absl::string_view what,
                       const std::string& path) {
  const std::string msg = absl::StrCat(doing, " ", what, " '", path, "': ", std::strerror(err));
  switch (err) {
    case EISDIR:
    case ENOTDIR:
    case EACCES:
    case EPERM:
    case EROFS:
    case ENOENT:
    case ENAMETOOLONG:
      return absl::FailedPreconditionError(msg);
    case ENOSPC:
    case EDQUOT:
    case ENOMEM:
      return absl::ResourceExhaustedError(msg);
    default:
      return absl::InternalError(msg);
  }
}

std::string TempNameFor(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  return absl::StrCat(path, ".tmp.", getpid(), ".", counter.fetch_add(1));
}

absl::Status WriteAll(int fd, absl::string_view bytes, absl::string_view what,
                      const std::string& tmp) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return FileError(w < 0 ? errno : ENOSPC, "writing", what, tmp);
    done += static_cast<size_t>(w);
  }
  if (::fsync(fd) != 0) return FileError(errno, "flushing", what, tmp);
  return absl::OkStatus();
}

}  // namespace

absl::Status WriteFileAtomically(const std::string& path, absl::string_view bytes,
                                 absl::string_view what) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    return errors::FailedPrecondition("cannot write ", what, " '", path,
                                      "': it is a directory; give a file name");
  }
  const std::string tmp = TempNameFor(path);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return FileError(errno, "cannot write", what, path);
  absl::Status written = WriteAll(fd, bytes, what, tmp);
  if (::close(fd) != 0 && written.ok()) written = FileError(errno, "closing", what, tmp);
  if (written.ok() && std::rename(tmp.c_str(), path.c_str()) != 0) {
    written = FileError(errno, absl::StrCat("renaming '", tmp, "' to"), what, path);
  }
  if (!written.ok()) ::unlink(tmp.c_str());
  return written;
}

absl::Status CheckWritable(const std::string& path, absl::string_view what) {
  if (path.empty()) return errors::InvalidArgument(what, " is empty; give a file name");
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    return errors::FailedPrecondition(what, " '", path, "' is a directory; give a file name");
  }
  const std::string probe = TempNameFor(path);
  int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return FileError(errno, "cannot write", what, path);
  ::close(fd);
  ::unlink(probe.c_str());
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadFileToString(const std::string& path, absl::string_view what,
                                             int64_t max_bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    if (err == ENOENT) return errors::NotFound(what, " '", path, "' does not exist");
    return FileError(err, "cannot open", what, path);
  }
  struct stat st;
  absl::Status status;
  std::string out;
  if (::fstat(fd, &st) != 0) {
    status = FileError(errno, "cannot stat", what, path);
  } else if (!S_ISREG(st.st_mode)) {
    status = errors::FailedPrecondition(what, " '", path, "' is ",
                                        S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
  } else if (st.st_size > max_bytes) {
    status = errors::ResourceExhausted(what, " '", path, "' has ", st.st_size,
                                       " bytes; the limit is ", max_bytes);
  } else {
    try {
      out.resize(static_cast<size_t>(st.st_size));
    } catch (const std::bad_alloc&) {
      status = errors::ResourceExhausted("out of memory reading ", what, " '", path, "' (",
                                         st.st_size, " bytes)");
    }
    size_t done = 0;
    while (status.ok() && done < out.size()) {
      ssize_t r = ::read(fd, out.data() + done, out.size() - done);
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) status = FileError(errno, "reading", what, path);
      if (r == 0) out.resize(done);  // shrank while reading
      done += r > 0 ? static_cast<size_t>(r) : 0;
    }
  }
  ::close(fd);
  if (!status.ok()) return status;
  return out;
}

}  // namespace rill
