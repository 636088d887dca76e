// Times rill's CollectiveAllReduce (a Session::Run of placeholder -> allreduce -> fetch)
// against a raw MPI_Allreduce of the same buffers, alternated in one run, for buffers of
// 1 MiB to 64 MiB of float32, and a tiny one for the per-call overhead. Two more columns:
// the raw MPI_Allreduce in rill's pieces (kAllReducePieceBytes, one call after another: what
// rill's own work adds to the same MPI calls), and the raw call handed to a thread of its
// own and waited for (a condition variable each way), as rill's engine runs collectives:
// what the handoff alone costs. With --reduction=mean rill's side is a mean (the raw sides
// stay sums): what the division adds. Run under mpirun; rank 0 prints the table.
//   mpirun -np 2 build/release/examples/allreduce_bench --sizes_mib=1,4,16,64
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "example_flags.h"
#include "rill/rill.h"
#include "rill/runtime/dist/comm.h"

ABSL_FLAG(std::vector<std::string>, sizes_mib, std::vector<std::string>({"1", "4", "16", "64"}),
          "buffer sizes in MiB (float32)");
ABSL_FLAG(int64_t, latency_elements, 1,
          "also time an allreduce of this many floats (rill's per-call overhead); 0: none");
ABSL_FLAG(int, reps, 15, "timed repetitions of each side (alternated; medians reported)");
ABSL_FLAG(std::string, reduction, "sum", "rill's reduction: sum or mean (MPI's stays a sum)");

namespace {

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// One thread that runs what it is handed while the caller waits.
class HandOff {
 public:
  HandOff() : thread_([this] { Loop(); }) {}
  ~HandOff() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }
  void Run(std::function<void()> job) {
    std::unique_lock<std::mutex> lock(mu_);
    job_ = std::move(job);
    done_ = false;
    cv_.notify_one();
    cv_.wait(lock, [this] { return done_; });
  }

 private:
  void Loop() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      cv_.wait(lock, [this] { return job_ != nullptr || stop_; });
      if (stop_) return;
      std::function<void()> job = std::move(job_);
      job_ = nullptr;
      lock.unlock();
      job();
      lock.lock();
      done_ = true;
      cv_.notify_all();
    }
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::function<void()> job_;
  bool done_ = false, stop_ = false;
  std::thread thread_;
};

struct Times {
  std::vector<double> raw, pieces, handed, rill;
};

// `reps` alternations of the four sides over `n` floats; false when rill or a sum fails.
bool TimeSize(rill::Session& session, const rill::Output& x, const rill::Output& sum, int64_t n,
              int reps, HandOff& hand_off, Times* t) {
  using namespace rill;
  const int rank = dist::Rank(), size = dist::Size();
  Tensor in(DT_FLOAT, TensorShape({n}));
  std::fill_n(in.flat<float>().data(), n, 1.f + rank);
  std::vector<float> recv(n), pieces(n), handed(n);
  std::vector<Tensor> out;
  auto raw = [&](float* into, int64_t piece) {
    const float* from = in.flat<float>().data();
    for (int64_t i = 0; i < n; i += piece) {
      const int m = static_cast<int>(std::min(piece, n - i));
      MPI_Allreduce(from + i, into + i, m, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    }
  };
  const int64_t piece = dist::kAllReducePieceBytes / 4;
  for (int r = -1; r < reps; ++r) {  // r = -1 warms every side up
    MPI_Barrier(MPI_COMM_WORLD);
    auto t0 = std::chrono::steady_clock::now();
    raw(recv.data(), n);
    if (r >= 0) t->raw.push_back(Seconds(t0));
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = std::chrono::steady_clock::now();
    raw(pieces.data(), piece);
    if (r >= 0) t->pieces.push_back(Seconds(t0));
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = std::chrono::steady_clock::now();
    hand_off.Run([&] { raw(handed.data(), n); });
    if (r >= 0) t->handed.push_back(Seconds(t0));
    MPI_Barrier(MPI_COMM_WORLD);
    out.clear();
    t0 = std::chrono::steady_clock::now();
    absl::Status st = session.Run({{x, in}}, {sum}, &out);
    if (r >= 0) t->rill.push_back(Seconds(t0));
    if (!st.ok()) {
      std::fprintf(stderr, "rank %d: %s\n", rank, st.ToString().c_str());
      return false;
    }
  }
  const float want = size * (size + 1) / 2.f;
  const float rill_want = absl::GetFlag(FLAGS_reduction) == "mean" ? want / size : want;
  if (out[0].flat<float>()(n - 1) != rill_want || recv[n - 1] != want || pieces[n - 1] != want ||
      handed[n - 1] != want) {
    std::fprintf(stderr, "rank %d: wrong sum %g / %g / %g / %g, want %g\n", rank,
                 out[0].flat<float>()(n - 1), recv[n - 1], pieces[n - 1], handed[n - 1], want);
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace rill;
  examples::ParseFlags(argc, argv,
                       "Times rill's CollectiveAllReduce against raw MPI_Allreduce on the same "
                       "float32 buffers (1 to 64 MiB), alternated, and prints the bandwidth of "
                       "each and their ratio. Run it under mpirun -np N.");
  // The program starts MPI itself (it calls MPI_Allreduce too); rill then uses that MPI.
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (absl::Status st = dist::Init(); !st.ok()) {
    std::fprintf(stderr, "dist::Init: %s\n", st.ToString().c_str());
    return 1;
  }
  const int rank = dist::Rank();
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT);
  const std::string reduction = absl::GetFlag(FLAGS_reduction);
  if (reduction != "sum" && reduction != "mean") {
    std::fprintf(stderr, "--reduction must be sum or mean, not %s\n", reduction.c_str());
    return 1;
  }
  auto sum = ops::CollectiveAllReduce(s, x, ops::CollectiveAllReduce::Reduction(reduction));
  SessionOptions options;
  options.inter_op_threads = 1;
  Session session(s, options);
  if (rank == 0) {
    std::printf("allreduce_bench: %d ranks, %s, rill's %s\n", dist::Size(), dist::Backend().c_str(),
                reduction.c_str());
    std::printf("%10s %14s %14s %12s %12s %8s %16s %16s\n", "bytes", "MPI ms", "rill ms",
                "MPI GB/s", "rill GB/s", "ratio", "MPI handed ms", "MPI pieces ms");
  }
  std::vector<int64_t> sizes;
  if (absl::GetFlag(FLAGS_latency_elements) > 0) {
    sizes.push_back(absl::GetFlag(FLAGS_latency_elements));
  }
  for (const std::string& mib_text : absl::GetFlag(FLAGS_sizes_mib)) {
    sizes.push_back(std::max<int64_t>(1, std::atoll(mib_text.c_str())) * (1 << 20) / 4);
  }
  HandOff hand_off;
  for (const int64_t n : sizes) {
    Times t;
    if (!TimeSize(session, x, sum, n, std::max(1, absl::GetFlag(FLAGS_reps)), hand_off, &t)) {
      return 1;
    }
    const double raw = Median(t.raw), mine = Median(t.rill), bytes = 4.0 * n;
    if (rank == 0) {
      std::printf("%10.0f %14.4f %14.4f %12.3f %12.3f %8.3f %16.4f %16.4f\n", bytes, raw * 1e3,
                  mine * 1e3, bytes / raw / 1e9, bytes / mine / 1e9, raw / mine,
                  Median(t.handed) * 1e3, Median(t.pieces) * 1e3);
    }
  }
  (void)dist::Shutdown();
  MPI_Finalize();
  return 0;
}
