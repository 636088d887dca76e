#include "rill/runtime/dist/node_segment.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "rill/core/allocator.h"
#include "rill/core/status.h"

namespace rill::dist {
namespace {

// Unmaps the memory when the last Tensor over it lets go (each rank its own mapping, so
// no rank waits for another to release).
class Mapping final : public BufferOwner {
 public:
  Mapping(void* addr, size_t bytes) : addr_(addr), bytes_(bytes) {}
  void Return(TensorBuffer* buffer) override {
    delete buffer;
    munmap(addr_, bytes_);
    delete this;
  }

 private:
  void* addr_;
  size_t bytes_;
};

// A name no other job on the host uses: the process, a count and 64 random bits.
std::string SegmentName() {
  static std::atomic<int64_t> count{0};
  std::random_device rd;
  const uint64_t nonce = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  return absl::StrFormat("/rill-%d-%d-%016x", getpid(), count.fetch_add(1), nonce);
}

// Rank 0's side: the segment made with all its pages reserved; nullptr on failure.
void* Create(const std::string& name, size_t bytes, std::string* why) {
  const int fd = shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
  if (fd < 0) {
    *why = absl::StrCat("shm_open: ", std::strerror(errno));
    return nullptr;
  }
  void* addr = nullptr;
  const int err = posix_fallocate(fd, 0, static_cast<off_t>(bytes));
  if (err != 0) {
    *why = absl::StrCat("reserving ", bytes, " bytes in /dev/shm: ", std::strerror(err));
  } else {
    addr = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (addr == MAP_FAILED) {
      *why = absl::StrCat("mmap: ", std::strerror(errno));
      addr = nullptr;
    }
  }
  close(fd);
  if (addr == nullptr) shm_unlink(name.c_str());
  return addr;
}

// The other ranks' side: rank 0's segment opened and mapped; nullptr on failure.
void* Open(const std::string& name, size_t bytes, std::string* why) {
  const int fd = name.empty() ? -1 : shm_open(name.c_str(), O_RDWR, 0600);
  if (fd < 0) {
    *why = name.empty() ? "rank 0 made none" : absl::StrCat("shm_open: ", std::strerror(errno));
    return nullptr;
  }
  struct stat st {};
  void* addr = nullptr;
  if (fstat(fd, &st) != 0 || static_cast<size_t>(st.st_size) < bytes) {
    *why = "the segment is smaller than asked";
  } else {
    addr = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (addr == MAP_FAILED) {
      *why = absl::StrCat("mmap: ", std::strerror(errno));
      addr = nullptr;
    }
  }
  close(fd);
  return addr;
}

}  // namespace

absl::StatusOr<Tensor> MapNodeSegment(Comm& comm, DataType dtype, const TensorShape& shape,
                                      bool able) {
  const size_t bytes = static_cast<size_t>(shape.num_elements()) * DataTypeSize(dtype);
  char name[64] = {};
  std::string why = able ? "" : "it is unable";
  if (bytes == 0) {
    able = false;
    why = "no bytes asked";
  }
  void* addr = nullptr;
  if (comm.rank() == 0 && able) {
    const std::string made = SegmentName();
    addr = Create(made, bytes, &why);
    if (addr != nullptr) std::strncpy(name, made.c_str(), sizeof(name) - 1);
  }
  RILL_RETURN_IF_ERROR(comm.Broadcast(name, sizeof(name), 0));
  if (comm.rank() != 0 && able) addr = Open(name, bytes, &why);
  int32_t mapped = addr != nullptr ? 1 : 0;
  const absl::Status counted = comm.AllReduce(&mapped, &mapped, 1, DT_INT32, false);
  if (comm.rank() == 0 && name[0] != '\0') shm_unlink(name);  // every rank has opened it
  if (!counted.ok() || mapped != comm.size()) {
    if (addr != nullptr) munmap(addr, bytes);
    RILL_RETURN_IF_ERROR(counted);
    return errors::Unavailable("the ranks cannot share ", bytes, " bytes of memory (",
                               comm.size() - mapped, " of ", comm.size(), " could not map it",
                               why.empty() ? "" : absl::StrCat("; rank ", comm.rank(), ": ", why),
                               ")");
  }
  TensorBuffer* buffer =
      TensorBuffer::Pooled(cpu_allocator(), addr, bytes, new Mapping(addr, bytes));
  buffer->Revive();
  return Tensor::Adopt(dtype, shape, buffer);
}

absl::Status NodeBarrier(Comm& comm) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  const int32_t here = 1;
  std::vector<int32_t> all(static_cast<size_t>(comm.size()));
  RILL_RETURN_IF_ERROR(comm.AllGather(&here, sizeof(here), all.data()));
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return absl::OkStatus();
}

}  // namespace rill::dist
