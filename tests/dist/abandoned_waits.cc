// The waits of rill's MPI collectives that a timeout can abandon, on 2 ranks. First rill's
// sum (runtime/dist/mpi/p2p_sum.h) on a communicator of this test's own, checked against the
// exact value, in place and not; then a sum that rank 1 never joins, which rank 0 gives up
// when another thread abandons it (as the engine's watchdog does after the collective
// timeout) and must leave within a second. Then the same for a broadcast, through the Comm
// the engine uses (MakeMpiComm); rank 1 joins it late and must still get rank 0's data.
// Rank 1 takes whatever rank 0 left pending, so both finish MPI cleanly. Prints "abandoned
// waits: passed" on rank 0.
//   mpirun -np 2 dist_abandoned_waits
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "rill/runtime/dist/comm.h"
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
  std::vector<float> mean(1001, -1.f);
  if (!sum.Run(comm, in.data(), mean.data(), 1001, rill::DT_FLOAT, /*mean=*/true, never).ok()) {
    return Fail(rank, "the mean failed");
  }
  if (!sum.Run(comm, in.data(), out.data(), 1001, rill::DT_FLOAT, false, never).ok()) {
    return Fail(rank, "the sum failed");
  }
  if (!sum.Run(comm, in.data(), in.data(), 1001, rill::DT_FLOAT, false, never).ok()) {
    return Fail(rank, "the sum in place failed");
  }
  for (size_t i = 0; i < in.size(); ++i) {
    const float want = static_cast<float>(2 * (i % 7) + 1);
    if (out[i] != want || in[i] != want) return Fail(rank, "a wrong sum");
    if (mean[i] != want / 2) return Fail(rank, "a wrong mean");
  }
  return true;
}

// Runs `call` on rank 0 while another thread calls `abandon` after 300 ms: true when it
// returned Aborted, in time.
template <typename Call, typename Abandon>
bool GivesUp(const char* what, Call call, Abandon abandon) {
  std::thread watchdog([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    abandon();
  });
  const auto start = std::chrono::steady_clock::now();
  const absl::Status st = call();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  watchdog.join();
  std::printf("rank 0: the %s without rank 1 returned after %.2f s: %s\n", what, s,
              st.ToString().c_str());
  if (!absl::IsAborted(st)) return Fail(0, "the abandoned call did not return Aborted");
  if (s < 0.29 || s > 1.3) return Fail(0, "the abandoned call did not leave on time");
  return true;
}

// Rank 0 alone starts a sum of 1 MiB.
bool SumGivesUp(MPI_Comm comm) {
  // MPI may still read and write it after the sum gives up (rank 1 comes late), so it
  // outlives the call, as the engine keeps a given-up collective's tensors (engine.cc).
  static std::vector<float>& buf = *new std::vector<float>(1 << 18, 1.f);
  std::atomic<bool> abandoned{false};
  PointToPointSum sum;
  return GivesUp(
      "sum",
      [&] {
        return sum.Run(comm, buf.data(), buf.data(), static_cast<int64_t>(buf.size()),
                       rill::DT_FLOAT, false, abandoned);
      },
      [&] { abandoned.store(true, std::memory_order_release); });
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

// A broadcast of 1 MiB from rank 0 that rank 1 joins only after rank 0 gave up on it: rank
// 1 must still receive rank 0's bytes.
bool BroadcastGivesUpAndLateRankGetsIt(rill::dist::Comm& comm, int rank) {
  static std::vector<char>& buf = *new std::vector<char>(1 << 20);  // outlives the call
  for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<char>(rank == 0 ? i % 251 : 0);
  bool ok = true;
  if (rank == 0) {
    ok = GivesUp(
        "broadcast",
        [&] { return comm.Broadcast(buf.data(), static_cast<int64_t>(buf.size()), 0); },
        [&] { comm.Abandon(); });
  }
  MPI_Barrier(MPI_COMM_WORLD);  // rank 0 has given up, and goes on progressing MPI
  if (rank == 1) {
    if (!comm.Broadcast(buf.data(), static_cast<int64_t>(buf.size()), 0).ok()) {
      return Fail(1, "the late broadcast failed");
    }
    for (size_t i = 0; i < buf.size(); ++i) {
      if (buf[i] != static_cast<char>(i % 251)) return Fail(1, "the late broadcast's bytes differ");
    }
  }
  return ok;
}

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
  if (rank == 0) ok = SumGivesUp(left) && ok;
  MPI_Barrier(MPI_COMM_WORLD);  // rank 0 has given up
  if (rank == 1) TakeWhatWasLeft(left);
  MPI_Barrier(MPI_COMM_WORLD);
  absl::StatusOr<std::unique_ptr<rill::dist::Comm>> comm = rill::dist::MakeMpiComm();
  if (!comm.ok()) return Fail(rank, "MakeMpiComm failed") ? 0 : 1;
  ok = BroadcastGivesUpAndLateRankGetsIt(**comm, rank) && ok;
  MPI_Barrier(MPI_COMM_WORLD);
  int all = ok ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rank == 0) std::printf("abandoned waits: %s\n", all ? "passed" : "FAILED");
  MPI_Comm_free(&both);
  MPI_Finalize();  // `left` keeps the abandoned sum's completed requests: never freed
  return all ? 0 : 1;
}
