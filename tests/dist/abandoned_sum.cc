// rill's sum over ranks (runtime/dist/mpi/p2p_sum.h) on 2 ranks, on communicators of this
// test's own: first a sum that both ranks make, checked against the exact value, in place
// and not; then one that rank 1 never joins, which rank 0 gives up when another thread
// abandons it (as the engine's watchdog does after the collective timeout) and must leave
// within a second. Rank 1 then takes the messages rank 0 left pending, so both finish MPI
// cleanly. Prints "abandoned sum: passed" on rank 0.
//   mpirun -np 2 dist_abandoned_sum
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "rill/runtime/dist/mpi/p2p_sum.h"

namespace {

using rill::dist::PointToPointSum;

bool Fail(int rank, const char* what) {
  std::printf("rank %d: %s\n", rank, what);
  return false;
}

// 1001 floats (odd: the ring's slices differ in length), each rank's terms small integers
// so the sum is exact.
bool SumsBothWays(MPI_Comm comm, int rank) {
  std::vector<float> in(1001), out(1001, -1.f);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 7 + rank);
  std::atomic<bool> never{false};
  PointToPointSum sum;
  if (!sum.Run(comm, in.data(), out.data(), 1001, rill::DT_FLOAT, never).ok()) {
    return Fail(rank, "the sum failed");
  }
  if (!sum.Run(comm, in.data(), in.data(), 1001, rill::DT_FLOAT, never).ok()) {
    return Fail(rank, "the sum in place failed");
  }
  for (size_t i = 0; i < in.size(); ++i) {
    const float want = static_cast<float>(2 * (i % 7) + 1);
    if (out[i] != want || in[i] != want) return Fail(rank, "a wrong sum");
  }
  return true;
}

// Rank 0 alone starts a sum of 1 MiB; another thread abandons it after 300 ms.
bool LeavesWhenAbandoned(MPI_Comm comm) {
  // MPI may still read and write it after the sum gives up (rank 1 comes late), so it
  // outlives the call, as the engine keeps a given-up collective's tensors (engine.cc).
  static std::vector<float>& buf = *new std::vector<float>(1 << 18, 1.f);
  std::atomic<bool> abandoned{false};
  std::thread watchdog([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    abandoned.store(true, std::memory_order_release);
  });
  const auto start = std::chrono::steady_clock::now();
  PointToPointSum sum;
  const absl::Status st = sum.Run(comm, buf.data(), buf.data(), static_cast<int64_t>(buf.size()),
                                  rill::DT_FLOAT, abandoned);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  watchdog.join();
  std::printf("rank 0: the sum without rank 1 returned after %.2f s: %s\n", s,
              st.ToString().c_str());
  if (!absl::IsAborted(st)) return Fail(0, "the abandoned sum did not return Aborted");
  if (s < 0.29 || s > 1.3) return Fail(0, "the abandoned sum did not leave on time");
  return true;
}

// Rank 1 arrives late: it receives what rank 0 left to send and sends what rank 0 left to
// receive, whatever the sum's messages are, so no call stays pending at MPI_Finalize.
void TakeWhatWasLeft(MPI_Comm comm) {
  MPI_Status status;
  MPI_Probe(0, MPI_ANY_TAG, comm, &status);
  int bytes = 0;
  MPI_Get_count(&status, MPI_BYTE, &bytes);
  std::vector<char> got(static_cast<size_t>(bytes));
  MPI_Recv(got.data(), bytes, MPI_BYTE, 0, status.MPI_TAG, comm, MPI_STATUS_IGNORE);
  MPI_Send(got.data(), bytes, MPI_BYTE, 0, status.MPI_TAG, comm);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) std::printf("run it on 2 ranks, not %d\n", size);
    MPI_Finalize();
    return 2;
  }
  MPI_Comm both, left;
  MPI_Comm_dup(MPI_COMM_WORLD, &both);
  MPI_Comm_dup(MPI_COMM_WORLD, &left);
  bool ok = SumsBothWays(both, rank);
  if (rank == 0) ok = LeavesWhenAbandoned(left) && ok;
  MPI_Barrier(MPI_COMM_WORLD);  // rank 0 has given up
  if (rank == 1) TakeWhatWasLeft(left);
  MPI_Barrier(MPI_COMM_WORLD);
  int all = ok ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rank == 0) std::printf("abandoned sum: %s\n", all ? "passed" : "FAILED");
  MPI_Comm_free(&both);
  MPI_Finalize();  // `left` keeps the abandoned sum's completed requests: never freed
  return all ? 0 : 1;
}
