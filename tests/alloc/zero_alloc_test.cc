// Steady state allocates nothing: after a plan's first runs (which record its memory
// layout), repeated runs of a training step make no heap allocation, counted by replacing
// the C library's allocation functions in this program (so every path counts: operator
// new, the CPU allocator, Eigen). oneDNN's sgemm is the exception: it mallocs its packing
// buffers inside every call, which no caller can supply; those allocations are told apart
// by the call stack (a frame inside libdnnl) and reported, not hidden. Not built under a
// sanitizer, which owns malloc itself.
#include <execinfo.h>
#include <gtest/gtest.h>
#include <link.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "support/model_steps.h"
#include "test_util.h"

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};         // outside oneDNN
std::atomic<long> onednn_allocations{0};  // with a frame in libdnnl on the stack
uintptr_t dnnl_begin = 0, dnnl_end = 0;   // libdnnl's mapped segments
thread_local bool unwinding = false;

int FindDnnl(dl_phdr_info* info, size_t, void*) {
  if (info->dlpi_name == nullptr || std::strstr(info->dlpi_name, "libdnnl") == nullptr) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    const uintptr_t b = info->dlpi_addr + ph.p_vaddr, e = b + ph.p_memsz;
    if (dnnl_begin == 0 || b < dnnl_begin) dnnl_begin = b;
    dnnl_end = std::max(dnnl_end, e);
  }
  return 1;
}

bool CalledFromDnnl() {
  void* frames[10];
  const int n = backtrace(frames, 10);
  for (int i = 0; i < n; ++i) {
    const auto pc = reinterpret_cast<uintptr_t>(frames[i]);
    if (pc >= dnnl_begin && pc < dnnl_end) return true;
  }
  return false;
}

void Count() {
  if (!counting.load(std::memory_order_relaxed) || unwinding) return;
  unwinding = true;  // the unwinder may allocate once itself
  const bool dnnl = CalledFromDnnl();
  (dnnl ? onednn_allocations : allocations).fetch_add(1, std::memory_order_relaxed);
  unwinding = false;
}
}  // namespace

extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);

void* malloc(size_t n) {
  Count();
  return __libc_malloc(n);
}
void* calloc(size_t n, size_t size) {
  Count();
  return __libc_calloc(n, size);
}
void* realloc(void* p, size_t n) {
  Count();
  return __libc_realloc(p, n);
}
void* memalign(size_t alignment, size_t n) {
  Count();
  return __libc_memalign(alignment, n);
}
void* aligned_alloc(size_t alignment, size_t n) {
  Count();
  return __libc_memalign(alignment, n);
}
int posix_memalign(void** out, size_t alignment, size_t n) {
  Count();
  *out = __libc_memalign(alignment, n);
  return *out == nullptr ? ENOMEM : 0;
}
}

namespace rill::testing {
namespace {

void FindOneDnn() {
  dl_iterate_phdr(FindDnnl, nullptr);
  void* frames[2];
  backtrace(frames, 2);  // loads the unwinder before any counting
}

// Allocations outside oneDNN made by `runs` runs of the step, after `warmup` runs (enough,
// as a rule, for each pool thread to have met each GEMM shape: the transposed sgemm keeps a
// buffer per thread, sized the first time). Which thread runs which kernel depends on the
// scheduler, so on a loaded machine a thread may first meet a shape later (a ctest -j 2 run
// saw 2 allocations in 10 runs once): up to three windows of `runs` are measured and the
// first without allocations ends it. A step that allocates on every run fails all three.
long AllocationsOfSteadyRuns(const TrainStep& t, int warmup, int runs) {
  FindOneDnn();
  SessionOptions options;
  options.inter_op_threads = 2;
  Session session(t.scope, options, CpuOnly());
  absl::Status init = session.Run({}, {}, {t.init}, nullptr);
  EXPECT_TRUE(init.ok()) << init;
  Session::CallableHandle h;
  absl::Status made = session.MakeCallable(t.Signature(), &h);
  EXPECT_TRUE(made.ok()) << made;
  if (!init.ok() || !made.ok()) return -1;
  const std::vector<Tensor> feeds = {t.x_value, t.y_value};
  for (int i = 0; i < warmup; ++i) EXPECT_TRUE(session.RunCallable(h, feeds, nullptr).ok());
  for (int window = 0; window < 3; ++window) {
    allocations.store(0);
    onednn_allocations.store(0);
    counting.store(true);
    for (int i = 0; i < runs; ++i) {
      if (!session.RunCallable(h, feeds, nullptr).ok()) ADD_FAILURE() << "run " << i;
    }
    counting.store(false);
    if (allocations.load() == 0) break;
  }
  absl::StatusOr<MemoryPlanStats> st = session.GetMemoryPlanStats(h);
  EXPECT_TRUE(st.ok());
  std::printf(
      "arena %lld bytes for %d values of %lld bytes in all (%d unplanned); per run: %.1f "
      "allocations by oneDNN's sgemm, %.1f elsewhere\n",
      static_cast<long long>(st->arena_bytes), st->planned_values,
      static_cast<long long>(st->planned_value_bytes), st->unplanned_values,
      static_cast<double>(onednn_allocations.load()) / runs,
      static_cast<double>(allocations.load()) / runs);
  return allocations.load();
}

TEST(ZeroAllocations, CifarMlpTrainingStep) {
  EXPECT_EQ(AllocationsOfSteadyRuns(CifarMlpStep(32, 512, 256), 10, 20), 0);
}

// Convolutions too: oneDNN's primitives run on memory objects and buffers kept from the
// first runs (kernels/cpu/dnnl_conv.h).
TEST(ZeroAllocations, MnistCnnTrainingStep) {
  EXPECT_EQ(AllocationsOfSteadyRuns(MnistCnnStep(16, 8, 16, 64), 10, 10), 0);
}

// The counter itself counts: the test would see an allocation.
TEST(ZeroAllocations, TheCounterSeesAllocations) {
  FindOneDnn();
  EXPECT_LT(dnnl_begin, dnnl_end);  // oneDNN was found, so its calls can be told apart
  allocations.store(0);
  counting.store(true);
  std::vector<int>* v = new std::vector<int>(100);
  counting.store(false);
  delete v;
  EXPECT_GE(allocations.load(), 2);
}

}  // namespace
}  // namespace rill::testing
