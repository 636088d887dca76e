// The seeds' experiment: multiply pairs of random matrices in a graph and clock it by
// matrix size and device. Per size and device: the first run (plan building included),
// then the median and spread of warm runs, GFLOP/s, and the ratio against the raw library
// (oneDNN sgemm on the CPU, cuBLAS on a GPU) timed in the same process. One result per
// size is checked against float64 so a fast wrong answer cannot pass. The matrices live
// in variables on the device; each run computes the product there and waits for it.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "example_flags.h"
#include "matmul_plot.h"
#include "matmul_raw.h"
#include "rill/rill.h"

ABSL_FLAG(std::string, sizes, "128,256,512,1024,2048,4096,8192",
          "comma-separated matrix sizes n (each run multiplies two n x n float32 matrices)");
ABSL_FLAG(int, reps, 10, "warm runs per size and device (the median is reported)");
ABSL_FLAG(double, min_time, 0.2,
          "after --reps, keep timing until each side has run this many seconds (small "
          "products then get enough samples for a steady median)");
ABSL_FLAG(std::string, devices, "all", "devices to run on: all, or a list such as cpu,gpu");
ABSL_FLAG(bool, tf32, false, "let the GPU use TF32 tensor cores (both rill and cuBLAS)");
ABSL_FLAG(std::string, csv, "", "write the results to this CSV file");
ABSL_FLAG(std::string, plot, "",
          "draw the figure to PLOT.png and PLOT.svg (default: the CSV's name without .csv)");
ABSL_FLAG(std::string, plot_from, "",
          "time nothing: draw the figure of a CSV this program wrote earlier (on another "
          "machine, say) to PLOT.png and PLOT.svg");

using namespace rill;  // NOLINT
using Clock = std::chrono::steady_clock;

namespace {

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct Row {
  std::string device;
  int64_t n;
  double first_ms, median_ms, min_ms, max_ms, gflops, raw_ms, ratio;
  bool verified;
};

Tensor RandomMatrix(int64_t n, uint32_t seed) {
  Tensor t(DT_FLOAT, TensorShape({n, n}));
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (int64_t i = 0; i < n * n; ++i) t.base<float>()[i] = u(gen);
  return t;
}

// Checks 32 entries of C = A B against float64 dot products (TF32 gets a looser bound).
bool Verify(const Tensor& a, const Tensor& b, const Tensor& c, int64_t n, bool tf32) {
  std::mt19937 gen(7);
  const double tol = tf32 ? 2e-3 * std::sqrt(double(n)) + 1e-3 : 1e-5 * n + 1e-4;
  for (int k = 0; k < 32; ++k) {
    int64_t i = gen() % n, j = gen() % n;
    double ref = 0;
    for (int64_t p = 0; p < n; ++p)
      ref += double(a.base<float>()[i * n + p]) * b.base<float>()[p * n + j];
    double got = c.base<float>()[i * n + j];
    if (!(std::abs(got - ref) <= tol)) {
      std::fprintf(stderr, "  mismatch at (%ld,%ld): %g vs %g\n", long(i), long(j), got, ref);
      return false;
    }
  }
  return true;
}

absl::StatusOr<Row> BenchOne(const std::string& device, const std::string& type, int64_t n,
                             int reps, double min_seconds, bool tf32, bench::RawGemm* raw) {
  Tensor a = RandomMatrix(n, 1), b = RandomMatrix(n, 2);
  Scope root = Scope::NewRootScope().WithDevice(device);
  auto va = ops::Variable(root.WithOpName("a"), {n, n}, DT_FLOAT);
  auto vb = ops::Variable(root.WithOpName("b"), {n, n}, DT_FLOAT);
  auto pa = ops::Placeholder(root, DT_FLOAT), pb = ops::Placeholder(root, DT_FLOAT);
  auto init_a = ops::Assign(root, va, pa), init_b = ops::Assign(root, vb, pb);
  auto c = ops::MatMul(root.WithOpName("c"), va, vb);
  SessionOptions opts;
  opts.allow_soft_placement = false;  // a benchmark must run where it says it runs
  opts.allow_tf32 = tf32;
  Session session(root, opts);
  RILL_RETURN_IF_ERROR(session.Run({{pa, a}, {pb, b}}, {}, {init_a, init_b}, nullptr));

  auto t0 = Clock::now();
  RILL_RETURN_IF_ERROR(session.Run({}, {}, {c.operation}, nullptr));
  Row row{type, n, Ms(Clock::now() - t0), 0, 0, 0, 0, 0, 0, false};
  std::vector<Tensor> out;
  RILL_RETURN_IF_ERROR(session.Run({c}, &out));
  row.verified = Verify(a, b, out[0], n, tf32 && type == "gpu");

  // One untimed run of each side (the raw side uploads its copies then), then alternate
  // which goes first, so neither side always finds the other's threads or caches warm.
  RILL_RETURN_IF_ERROR(session.Run({}, {}, {c.operation}, nullptr));
  if (raw != nullptr) (void)raw->TimeMs(a, b, n);
  std::vector<double> times, raws;
  const double min_ms = 1e3 * min_seconds;
  double spent_ms = 0, raw_spent_ms = 0;
  constexpr int kMaxReps = 100000;
  for (int r = 0;
       r < kMaxReps && (r < reps || spent_ms < min_ms || (raw != nullptr && raw_spent_ms < min_ms));
       ++r) {
    for (int k = 0; k < 2; ++k) {
      if ((r + k) % 2 == 0) {
        auto s = Clock::now();
        RILL_RETURN_IF_ERROR(session.Run({}, {}, {c.operation}, nullptr));
        times.push_back(Ms(Clock::now() - s));
        spent_ms += times.back();
      } else if (raw != nullptr) {
        raws.push_back(raw->TimeMs(a, b, n));
        raw_spent_ms += raws.back();
      }
    }
  }
  row.median_ms = Median(times);
  row.min_ms = *std::min_element(times.begin(), times.end());
  row.max_ms = *std::max_element(times.begin(), times.end());
  row.gflops = 2.0 * n * n * n / (row.median_ms * 1e6);
  row.raw_ms = raws.empty() ? std::nan("") : Median(raws);
  row.ratio = row.raw_ms / row.median_ms;
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  rill::examples::ParseFlags(
      argc, argv,
      "Times an n x n float32 MatMul graph per size and device against the raw library\n"
      "(oneDNN sgemm, cuBLAS) and draws time against size.\n"
      "Example: matmul_bench --sizes=256,1024 --reps=20 --csv=matmul.csv");
  if (const std::string from = absl::GetFlag(FLAGS_plot_from); !from.empty()) {
    if (!absl::GetFlag(FLAGS_csv).empty()) {
      std::fprintf(stderr, "matmul_bench: --plot_from draws an existing CSV; drop --csv\n");
      return 2;
    }
    auto devices = bench::CsvDevices(from);
    if (!devices.ok()) {
      std::fprintf(stderr, "matmul_bench: --plot_from: %s\n",
                   std::string(devices.status().message()).c_str());
      return 2;
    }
    return bench::PlotMatmulCsv(from, bench::PlotPrefix(from, absl::GetFlag(FLAGS_plot)), *devices)
               ? 0
               : 1;
  }
  std::vector<int64_t> sizes;
  for (absl::string_view s : absl::StrSplit(absl::GetFlag(FLAGS_sizes), ',')) {
    int64_t n;
    if (!absl::SimpleAtoi(s, &n) || n < 1 || n > 32768) {
      std::fprintf(stderr, "matmul_bench: --sizes: '%s' is not a size in 1..32768\n",
                   std::string(s).c_str());
      return 2;
    }
    sizes.push_back(n);
  }
  const int reps = absl::GetFlag(FLAGS_reps);
  if (reps < 1) {
    std::fprintf(stderr, "matmul_bench: --reps must be at least 1\n");
    return 2;
  }
  const double min_seconds = absl::GetFlag(FLAGS_min_time);
  if (!(min_seconds >= 0 && min_seconds <= 600)) {
    std::fprintf(stderr, "matmul_bench: --min_time must be between 0 and 600 seconds\n");
    return 2;
  }
  const bool tf32 = absl::GetFlag(FLAGS_tf32);

  // Device start-up (CUDA context, library handles, oneDNN's JIT) happens once per process
  // when the devices are first listed: shown on its own, as the seeds could only guess.
  auto t0 = Clock::now();
  DeviceSet local = DeviceSet::Local();
  std::printf("device start-up (once per process): %.1f ms\n", Ms(Clock::now() - t0));
  std::vector<std::pair<std::string, std::string>> present, devices;  // (full name, type)
  for (const auto& d : local.devices()) {
    present.push_back({d->name(), d->device_type() == DEVICE_GPU ? "gpu" : "cpu"});
  }
  const std::string want = absl::GetFlag(FLAGS_devices);
  for (absl::string_view d : absl::StrSplit(want, ',')) {
    bool found = false;
    for (auto& p : present) {
      if (d == "all" || d == p.second) {
        found = true;
        if (std::find(devices.begin(), devices.end(), p) == devices.end()) devices.push_back(p);
      }
    }
    if (!found) {
      std::string have;
      for (auto& p : present) have += (have.empty() ? "" : ",") + p.second;
      std::fprintf(stderr, "matmul_bench: --devices: '%s' is not present here (have: %s)\n",
                   std::string(d).c_str(), have.c_str());
      return 2;
    }
  }

  std::printf("%-4s %6s %10s %11s %10s %10s %9s %11s %8s %s\n", "dev", "n", "first_ms", "median_ms",
              "min_ms", "max_ms", "GFLOP/s", "raw_ms", "vs_raw", "check");
  const bool progress = isatty(STDERR_FILENO);
  std::vector<Row> rows;
  bool all_ok = true;
  const size_t total = sizes.size() * devices.size();
  for (auto& [full, type] : devices) {
    std::unique_ptr<bench::RawGemm> raw = bench::MakeRawGemm(type, tf32);
    for (int64_t n : sizes) {
      if (progress) {
        std::fprintf(stderr, "\r[%zu/%zu] n=%ld on %s ...", rows.size() + 1, total, long(n),
                     type.c_str());
      }
      auto row = BenchOne(full, type, n, reps, min_seconds, tf32, raw.get());
      if (progress) std::fprintf(stderr, "\r%60s\r", "");
      if (!row.ok()) {
        std::fprintf(stderr, "matmul_bench: n=%ld on %s: %s\n", long(n), full.c_str(),
                     row.status().ToString().c_str());
        return 1;
      }
      all_ok &= row->verified;
      std::printf("%-4s %6ld %10.3f %11.4f %10.4f %10.4f %9.1f %11.4f %8.3f %s\n",
                  row->device.c_str(), long(n), row->first_ms, row->median_ms, row->min_ms,
                  row->max_ms, row->gflops, row->raw_ms, row->ratio,
                  row->verified ? "ok" : "WRONG");
      std::fflush(stdout);
      rows.push_back(*row);
    }
  }
  const std::string csv = absl::GetFlag(FLAGS_csv);
  if (!csv.empty()) {
    std::ofstream f(csv);
    f << bench::kMatmulCsvHeader << '\n';
    for (const Row& r : rows) {
      f << r.device << ',' << r.n << ',' << r.first_ms << ',' << r.median_ms << ',' << r.min_ms
        << ',' << r.max_ms << ',' << r.gflops << ',' << r.raw_ms << ',' << r.ratio << ','
        << (r.verified ? 1 : 0) << '\n';
    }
    f.close();  // flushed before gnuplot reads it
    if (!f) {
      std::fprintf(stderr, "matmul_bench: could not write %s\n", csv.c_str());
      return 1;
    }
    std::vector<std::string> types;
    for (auto& d : devices) types.push_back(d.second);
    bench::PlotMatmulCsv(csv, bench::PlotPrefix(csv, absl::GetFlag(FLAGS_plot)), types);
  }
  return all_ok ? 0 : 1;
}
