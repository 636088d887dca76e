// In-memory datasets for training: features and labels as tensors whose first dimension
// is the example index; an epoch is a (seeded) shuffle cut into batches. The next batches
// are gathered on a worker thread while the steps run, straight into the
// model's device's staging memory when it has some (a GPU's pinned host memory), and
// its upload started there on the device's copy stream, so the step finds it on the
// device.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "rill/core/kernel.h"
#include "rill/core/tensor.h"

namespace rill::keras {

struct Batch {
  Tensor x, y;
  int64_t size = 0;
};

class Dataset {
 public:
  // x and y must have the same number of rows (dim 0); y may be empty (Predict).
  static absl::StatusOr<Dataset> FromTensors(Tensor x, Tensor y = Tensor());
  int64_t size() const { return x_.dim_size(0); }
  const Tensor& x() const { return x_; }
  const Tensor& y() const { return y_; }
  // Rows `idx` of x and y, as new tensors (from `allocator` when given and it has room).
  Batch Gather(const std::vector<int64_t>& idx, Allocator* allocator = nullptr) const;

 private:
  Tensor x_, y_;
};

// One epoch's batches in order, prepared in the background up to kAhead batches ahead.
// The worker is woken only when the queue has drained to half (not at every batch), and
// the consumer only when it waits for a batch: a step shorter than a thread's wake-up
// (a small model, tens of microseconds) no longer waits for the worker each time.
// A rank's part of each batch in data-parallel training: the epoch is cut into batches of
// batch_size * count (shuffled alike on every rank), and rank `index` takes the index-th
// count-th of each, so N ranks see what one process with N times the batch sees. A last
// batch that does not divide evenly leaves its remainder rows out on every rank.
struct Shard {
  int64_t index = 0, count = 1;
};

class BatchIterator {
 public:
  // Batches are allocated from `allocator` (host-addressable) when given, and, with
  // `upload_to`, their upload to that device is started as soon as they are ready.
  BatchIterator(const Dataset& data, int64_t batch_size, bool shuffle, uint64_t seed,
                Allocator* allocator = nullptr, DeviceBase* upload_to = nullptr, Shard shard = {});
  ~BatchIterator();
  BatchIterator(const BatchIterator&) = delete;
  BatchIterator& operator=(const BatchIterator&) = delete;
  int64_t num_batches() const { return num_batches_; }
  // The next batch, or nullopt at the end of the epoch.
  std::optional<Batch> Next();

 private:
  void Work();
  std::vector<int64_t> Indices(int64_t b) const;

  const Dataset& data_;
  Allocator* allocator_;
  DeviceBase* upload_to_;
  int64_t batch_size_, num_batches_;
  Shard shard_;
  std::vector<int64_t> order_;
  // Batches made ahead. With the one being made, at most kAhead + 1 are uploaded ahead
  // at once (two tensors each), within what a GPU device keeps (GpuDevice::PrefetchFromHost).
  static constexpr size_t kAhead = 6;
  std::mutex mu_;
  std::condition_variable worker_cv_, consumer_cv_;
  std::deque<Batch> ready_;
  int64_t next_to_make_ = 0;
  bool stop_ = false, worker_waiting_ = false, consumer_waiting_ = false;
  std::thread worker_;
};

}  // namespace rill::keras
