#include "rill/runtime/dist/mpi/p2p_sum.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "rill/core/status.h"
#include "rill/runtime/dist/comm.h"

namespace rill::dist {
namespace {

// The tag of every message of a sum. The ranks run their collectives in one order, and MPI
// keeps the order of messages between two ranks on one tag, so one tag is enough.
constexpr int kSumTag = 0x5253;

// out = (a + b) / divisor over n elements (out may be a; divisor 1 for a plain sum).
// Integers wrap, as MPI's sums do, computed unsigned (a signed overflow is undefined in
// C++), then divide truncating, as a mean's division does after the sum.
template <typename T, bool = std::is_integral_v<T>>
struct Wrapping {
  using type = T;
};
template <typename T>
struct Wrapping<T, true> {
  using type = std::make_unsigned_t<T>;
};

template <typename T>
void AddTyped(const char* a, const char* b, char* out, int64_t n, int divisor) {
  using U = typename Wrapping<T>::type;
  const T* x = reinterpret_cast<const T*>(a);
  const T* y = reinterpret_cast<const T*>(b);
  T* o = reinterpret_cast<T*>(out);
  if (divisor == 1) {
    for (int64_t i = 0; i < n; ++i)
      o[i] = static_cast<T>(static_cast<U>(x[i]) + static_cast<U>(y[i]));
    return;
  }
  // Divided, not multiplied by 1 / divisor: the same bits as the sum divided afterwards.
  const T d = static_cast<T>(divisor);
  for (int64_t i = 0; i < n; ++i)
    o[i] = static_cast<T>(static_cast<T>(static_cast<U>(x[i]) + static_cast<U>(y[i])) / d);
}

// Every number dtype has a sum; bool and complex64 do not.
absl::Status Add(const char* a, const char* b, char* out, int64_t n, DataType dtype,
                 int divisor = 1) {
  bool summed = false;
  VisitDataType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>) {
      AddTyped<T>(a, b, out, n, divisor);
      summed = true;
    }
  });
  if (!summed) return errors::InvalidArgument("no MPI sum for ", DataTypeString(dtype));
  return absl::OkStatus();
}

// Where slice c of n elements, cut in `size` slices, starts.
int64_t SliceStart(int64_t n, int size, int c) { return n * c / size; }

}  // namespace

absl::Status WaitPolling(MPI_Request* reqs, int n, const char* call,
                         const std::atomic<bool>& abandoned) {
  for (;;) {
    int done = 0;
    RILL_RETURN_IF_ERROR(CheckMpi(MPI_Testall(n, reqs, &done, MPI_STATUSES_IGNORE), "MPI_Testall"));
    if (done) return absl::OkStatus();
    if (abandoned.load(std::memory_order_acquire)) {
      return errors::Aborted(call, " abandoned: the collective timed out");
    }
  }
}

absl::Status CheckMpi(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return absl::OkStatus();
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  return errors::Internal(call, " failed: ", std::string(text, std::max(len, 0)));
}

absl::Status PointToPointSum::Exchange(MPI_Comm comm, int to, const void* send, int64_t send_bytes,
                                       int from, void* into, int64_t recv_bytes,
                                       const std::atomic<bool>& abandoned) {
  // Both ends of a message know its length: an empty one is skipped by both. Lengths are at
  // most a piece (comm.h), so they fit MPI's ints.
  MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  if (recv_bytes > 0) {
    RILL_RETURN_IF_ERROR(CheckMpi(
        MPI_Irecv(into, static_cast<int>(recv_bytes), MPI_BYTE, from, kSumTag, comm, &reqs[0]),
        "MPI_Irecv"));
  }
  if (send_bytes > 0) {
    RILL_RETURN_IF_ERROR(CheckMpi(
        MPI_Isend(send, static_cast<int>(send_bytes), MPI_BYTE, to, kSumTag, comm, &reqs[1]),
        "MPI_Isend"));
  }
  return WaitPolling(reqs, 2, "a sum over ranks", abandoned);
}

absl::Status PointToPointSum::Ring(MPI_Comm comm, int rank, int size, const char* in, char* out,
                                   int64_t n, DataType dtype, bool mean,
                                   const std::atomic<bool>& abandoned) {
  const int64_t elem = DataTypeSize(dtype);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  auto slice = [size](int c) { return ((c % size) + size) % size; };
  auto start = [&](int c) { return SliceStart(n, size, slice(c)) * elem; };
  auto bytes = [&](int c) {
    return (SliceStart(n, size, slice(c) + 1) - SliceStart(n, size, slice(c))) * elem;
  };
  // Step s sends the slice this rank summed at step s - 1 (its own term at step 0) and adds
  // its own term to the left one's partial sum of the next: after size - 1 steps, slice
  // rank + 1 holds every rank's term. Each slice this rank adds to, it adds to once, reading
  // its term from `in`, so `out` needs no copy of it first. A mean divides the last add's
  // result, while the slice is still in the cache: a pass of its own over the whole sum
  // afterwards took 2.4-3.7 ms for 36.9 MB (docs/benchmarks.md).
  for (int s = 0; s + 1 < size; ++s) {
    const int sent = rank - s, got = rank - s - 1;
    const char* from = s == 0 ? in : out;
    RILL_RETURN_IF_ERROR(Exchange(comm, right, from + start(sent), bytes(sent), left,
                                  scratch_.data(), bytes(got), abandoned));
    const int divisor = mean && s + 2 == size ? size : 1;
    RILL_RETURN_IF_ERROR(
        Add(in + start(got), scratch_.data(), out + start(got), bytes(got) / elem, dtype, divisor));
  }
  // Then each summed slice goes round, received where it belongs.
  for (int s = 0; s + 1 < size; ++s) {
    const int sent = rank + 1 - s, got = rank - s;
    RILL_RETURN_IF_ERROR(Exchange(comm, right, out + start(sent), bytes(sent), left,
                                  out + start(got), bytes(got), abandoned));
  }
  return absl::OkStatus();
}

absl::Status PointToPointSum::Run(MPI_Comm comm, const void* send, void* recv, int64_t count,
                                  DataType dtype, bool mean, const std::atomic<bool>& abandoned) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int64_t elem = DataTypeSize(dtype);
  // A dtype without a sum fails here, before any rank sends (an empty Add checks it).
  RILL_RETURN_IF_ERROR(Add(nullptr, nullptr, nullptr, 0, dtype));
  const int64_t piece = std::max<int64_t>(1, kAllReducePieceBytes / elem);
  // The largest slice of a piece (the last of size slices is the longest).
  const int64_t slice = std::min(count, piece) - SliceStart(std::min(count, piece), size, size - 1);
  scratch_.resize(static_cast<size_t>(slice * elem));
  const char* in = static_cast<const char*>(send);
  char* out = static_cast<char*>(recv);
  absl::Status st;
  for (int64_t done = 0; done < count && st.ok(); done += piece) {
    const int64_t n = std::min(count - done, piece);
    const int64_t at = done * elem;
    if (size == 1) {
      if (in != out) std::memcpy(out + at, in + at, static_cast<size_t>(n * elem));
    } else {
      st = Ring(comm, rank, size, in + at, out + at, n, dtype, mean, abandoned);
    }
  }
  if (!st.ok()) {  // given up (or a failed call): a receive may still be pending
    static auto* kept = new std::vector<std::vector<char>>;  // never freed, on purpose
    kept->push_back(std::move(scratch_));                    // a late rank may still send into it
  }
  return st;
}

}  // namespace rill::dist
