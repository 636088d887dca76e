// A fake world of ranks for the collectives' tests on one process: FakeComm answers every
// statement as if the other ranks had stated what a callback writes, and moves no data.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <mutex>
#include <vector>

#include "rill/runtime/dist/collectives.h"
#include "rill/runtime/dist/comm.h"
#include "test_util.h"

namespace rill::testing::fake_comm {

// A world of `size` ranks seen from rank 0, where every other rank states what `others`
// writes into its statement's place.
class FakeComm : public dist::Comm {
 public:
  FakeComm(int size, std::function<void(void*)> others) : size_(size), others_(std::move(others)) {}
  int rank() const override { return 0; }
  int size() const override { return size_; }
  int local_rank() const override { return 0; }
  int local_size() const override { return size_; }
  std::string backend() const override { return "fake"; }
  absl::Status AllGather(const void* send, int64_t bytes, void* recv) override {
    if (block_) {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return released_; });
    }
    for (int r = 0; r < size_; ++r) std::memcpy(static_cast<char*>(recv) + r * bytes, send, bytes);
    // Statements are answered by `others`; a barrier's one int (dist::NodeBarrier) is not.
    if (bytes <= static_cast<int64_t>(sizeof(int64_t))) return absl::OkStatus();
    for (int r = 1; r < size_; ++r) others_(static_cast<char*>(recv) + r * bytes);
    return absl::OkStatus();
  }
  absl::Status AllReduce(const void*, void*, int64_t, DataType, bool) override {
    ++transfers;
    return absl::OkStatus();
  }
  absl::Status Broadcast(void*, int64_t, int) override { return absl::OkStatus(); }
  absl::Status AllGatherV(const void*, const std::vector<int64_t>& bytes, void*) override {
    gathered.push_back(bytes);
    return absl::OkStatus();
  }
  absl::Status Finalize() override { return absl::OkStatus(); }
  void Abandon() override { abandoned = true; }
  void Block() { block_ = true; }
  void Release() {
    std::lock_guard<std::mutex> lock(mu_);
    released_ = true;
    cv_.notify_all();
  }
  std::atomic<int> transfers{0};
  std::vector<std::vector<int64_t>> gathered;  // each AllGatherV's bytes per rank
  std::atomic<bool> abandoned{false};

 private:
  int size_;
  std::function<void(void*)> others_;
  bool block_ = false, released_ = false;
  std::mutex mu_;
  std::condition_variable cv_;
};

// Keeps what rank 0 states (its statement's bytes).
struct RecordingComm : FakeComm {
  using FakeComm::FakeComm;
  std::vector<char> sent;
  absl::Status AllGather(const void* send, int64_t bytes, void* recv) override {
    sent.assign(static_cast<const char*>(send), static_cast<const char*>(send) + bytes);
    return FakeComm::AllGather(send, bytes, recv);
  }
};

inline dist::CollectiveSpec Spec(TensorShape shape) {
  return {dist::CollectiveKind::kAllReduce, "grad_sum", DT_FLOAT, std::move(shape), 0, 0};
}

// What rank 0 states for `spec` (the statement's layout is private to collectives.cc).
inline std::vector<char> Statement(const dist::CollectiveSpec& spec) {
  RecordingComm recorder(1, nullptr);
  Tensor t(spec.dtype, spec.shape);
  dist::HostPlace host;
  EXPECT_TRUE(dist::AllReduce(recorder, host, spec, t, t, false).ok());
  return recorder.sent;
}

}  // namespace rill::testing::fake_comm
