// The seeds' experiment: multiply pairs of random matrices in a graph and clock it by
// matrix size and device. Per size and device: the first run (plan building included),
// then the median and spread of warm runs, GFLOP/s, and the ratio against the raw library
// (oneDNN sgemm on the CPU) timed in the same process. One result per size is checked
// against a float64 reference so that a fast wrong answer cannot pass.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "oneapi/dnnl/dnnl.h"
#include "rill/rill.h"

ABSL_FLAG(std::string, sizes, "64,128,256,512,1024,2048,4096",
          "comma-separated matrix sizes n (each run multiplies two n x n float32 matrices)");
ABSL_FLAG(int, reps, 10, "warm runs per size and device (the median is reported)");
ABSL_FLAG(std::string, devices, "all", "devices to run on: all, or a list such as cpu,gpu");
ABSL_FLAG(std::string, csv, "", "also write the results to this CSV file");

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

// Checks 32 entries of C = A B against float64 dot products.
bool Verify(const Tensor& a, const Tensor& b, const Tensor& c, int64_t n) {
  std::mt19937 gen(7);
  for (int k = 0; k < 32; ++k) {
    int64_t i = gen() % n, j = gen() % n;
    double ref = 0;
    for (int64_t p = 0; p < n; ++p)
      ref += double(a.base<float>()[i * n + p]) * b.base<float>()[p * n + j];
    double got = c.base<float>()[i * n + j];
    if (!(std::abs(got - ref) <= 1e-5 * n + 1e-4)) {
      std::fprintf(stderr, "  mismatch at (%ld,%ld): %g vs %g\n", long(i), long(j), got, ref);
      return false;
    }
  }
  return true;
}

absl::StatusOr<Row> BenchOne(const std::string& device, const std::string& type, int64_t n,
                             int reps) {
  Tensor a = RandomMatrix(n, 1), b = RandomMatrix(n, 2);
  Scope root = Scope::NewRootScope().WithDevice(device);
  auto pa = ops::Placeholder(root.WithOpName("a"), DT_FLOAT, ops::Placeholder::Shape({n, n}));
  auto pb = ops::Placeholder(root.WithOpName("b"), DT_FLOAT, ops::Placeholder::Shape({n, n}));
  auto c = ops::MatMul(root.WithOpName("c"), pa, pb);
  SessionOptions opts;
  opts.allow_soft_placement = false;  // a benchmark must run where it says it runs
  Session session(root, opts);
  std::vector<Tensor> out;
  Session::FeedType feeds{{pa, a}, {pb, b}};

  auto t0 = Clock::now();
  RILL_RETURN_IF_ERROR(session.Run(feeds, {c}, &out));
  Row row{type, n, Ms(Clock::now() - t0), 0, 0, 0, 0, 0, 0, false};
  row.verified = Verify(a, b, out[0], n);

  std::vector<double> times, raw;
  std::vector<float> raw_c(n * n);
  // Alternate which goes first, so that neither side always finds oneDNN's OpenMP
  // threads still spinning from the other's call.
  auto run_raw = [&] {
    if (type == "cpu") {
      dnnl_sgemm('N', 'N', n, n, n, 1.0f, a.base<float>(), n, b.base<float>(), n, 0.0f,
                 raw_c.data(), n);
    }
  };
  for (int r = 0; r < reps; ++r) {
    for (int k = 0; k < 2; ++k) {
      auto s = Clock::now();
      if ((r + k) % 2 == 0) {
        RILL_RETURN_IF_ERROR(session.Run(feeds, {c}, &out));
        times.push_back(Ms(Clock::now() - s));
      } else {
        run_raw();
        raw.push_back(Ms(Clock::now() - s));
      }
    }
  }
  row.median_ms = Median(times);
  row.min_ms = *std::min_element(times.begin(), times.end());
  row.max_ms = *std::max_element(times.begin(), times.end());
  row.gflops = 2.0 * n * n * n / (row.median_ms * 1e6);
  row.raw_ms = Median(raw);
  row.ratio = row.raw_ms / row.median_ms;
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Times an n x n float32 MatMul graph per size and device against the raw library.\n"
      "Example: matmul_bench --sizes=256,1024 --reps=20 --csv=matmul.csv");
  absl::ParseCommandLine(argc, argv);
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
  Scope probe = Scope::NewRootScope();
  Session probe_session(probe);
  std::vector<std::pair<std::string, std::string>> devices;  // (spec, short name)
  std::string want = absl::GetFlag(FLAGS_devices);
  for (const std::string& full : probe_session.ListDevices()) {
    std::string type = full.find("GPU") != std::string::npos ? "gpu" : "cpu";
    if (want == "all" || want.find(type) != std::string::npos) devices.push_back({full, type});
  }
  for (absl::string_view d : absl::StrSplit(want, ',')) {
    bool known = d == "all" || d == "cpu" || d == "gpu";
    bool present = d == "all";
    for (auto& [full, type] : devices) present |= type == d;
    if (!known || !present) {
      std::fprintf(stderr, "matmul_bench: --devices: '%s' is not present here (have: %s)\n",
                   std::string(d).c_str(), devices.empty() ? "none" : devices[0].second.c_str());
      return 2;
    }
  }

  std::printf("%-4s %6s %10s %11s %10s %10s %9s %11s %8s %s\n", "dev", "n", "first_ms", "median_ms",
              "min_ms", "max_ms", "GFLOP/s", "raw_ms", "vs_raw", "check");
  std::vector<Row> rows;
  bool all_ok = true;
  for (int64_t n : sizes) {
    for (auto& [full, type] : devices) {
      auto row = BenchOne(full, type, n, reps);
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
  if (!absl::GetFlag(FLAGS_csv).empty()) {
    std::ofstream f(absl::GetFlag(FLAGS_csv));
    f << "device,n,first_run_ms,median_ms,min_ms,max_ms,gflops,raw_median_ms,ratio_vs_raw,"
         "verified\n";
    for (const Row& r : rows) {
      f << r.device << ',' << r.n << ',' << r.first_ms << ',' << r.median_ms << ',' << r.min_ms
        << ',' << r.max_ms << ',' << r.gflops << ',' << r.raw_ms << ',' << r.ratio << ','
        << (r.verified ? 1 : 0) << '\n';
    }
    if (!f) {
      std::fprintf(stderr, "matmul_bench: could not write %s\n", absl::GetFlag(FLAGS_csv).c_str());
      return 1;
    }
  }
  return all_ok ? 0 : 1;
}
