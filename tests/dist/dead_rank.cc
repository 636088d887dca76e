// A rank that dies must not leave the others hanging: rank 1 kills itself before the job's
// first allreduce; every other rank's allreduce fails within the collective timeout
// (RILL_COLLECTIVE_TIMEOUT, set by the CTest test) with a Status naming the collective, the
// node and the rank, which the program prints before exiting non-zero. Then the survivor's
// communication thread leaves its wait for the dead rank (and the watchdog its watch): the
// process has two threads fewer.
//   mpirun --enable-recovery -np 2 dist_dead_rank     (recovery: mpirun leaves survivors be)
#include <dirent.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>

#include "rill/rill.h"

namespace {

// This process's threads, as Linux lists them.
int Threads() {
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return -1;
  int n = 0;
  while (const dirent* e = readdir(dir)) n += e->d_name[0] != '.';
  closedir(dir);
  return n;
}

// Whether the process drops to `want` threads or fewer within two seconds.
bool ThreadsLeft(int want) {
  for (int i = 0; i < 200; ++i) {
    if (Threads() <= want) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace

int main() {
  using namespace rill;
  if (absl::Status st = dist::Init(); !st.ok()) {
    std::fprintf(stderr, "dist::Init: %s\n", st.ToString().c_str());
    return 2;
  }
  const int rank = dist::Rank();
  Scope s = Scope::NewRootScope();
  auto x = ops::Const(s, {1.f, 2.f, 3.f});
  auto sum = ops::CollectiveAllReduce(s.WithOpName("grad_sum"), x);
  Session session(s);
  std::vector<Tensor> out;
  // Every rank meets once, so all have started before rank 1 dies.
  if (absl::Status st = session.Run({sum}, &out); !st.ok()) {
    std::fprintf(stderr, "rank %d: first allreduce: %s\n", rank, st.ToString().c_str());
    return 2;
  }
  // Rank 1's allreduce can return while its last message to rank 0 is still on its way:
  // dying at once could fail rank 0's first allreduce (not the one this program times).
  // Half a second lets that message land and rank 0 enter the second.
  if (rank == 1) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    std::raise(SIGKILL);
  }
  const int threads = Threads();
  const auto start = std::chrono::steady_clock::now();
  absl::Status st = session.Run({sum}, &out);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("rank %d: after %.1f s (timeout %s): %s\n", rank, seconds,
              absl::FormatDuration(dist::Timeout()).c_str(), st.ToString().c_str());
  std::printf("rank %d: the communication thread and the watchdog %s\n", rank,
              ThreadsLeft(threads - 2) ? "left" : "are still running");
  std::fflush(stdout);
  return st.ok() ? 0 : 3;
}
