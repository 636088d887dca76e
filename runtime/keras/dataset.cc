#include "rill/runtime/keras/dataset.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>

#include "rill/core/status.h"

namespace rill::keras {

absl::StatusOr<Dataset> Dataset::FromTensors(Tensor x, Tensor y) {
  if (!x.IsInitialized() || x.dims() < 1) {
    return errors::InvalidArgument("features must have a first (example) dimension, got ",
                                   x.IsInitialized() ? x.shape().DebugString() : "nothing");
  }
  if (y.IsInitialized() && (y.dims() < 1 || y.dim_size(0) != x.dim_size(0))) {
    return errors::InvalidArgument("features of shape ", x.shape().DebugString(),
                                   " and labels of shape ", y.shape().DebugString(),
                                   " must have the same number of rows");
  }
  Dataset d;
  d.x_ = std::move(x);
  d.y_ = std::move(y);
  return d;
}

namespace {
Tensor GatherRows(const Tensor& t, const std::vector<int64_t>& idx, Allocator* allocator) {
  std::vector<int64_t> dims(t.shape().dim_sizes().begin(), t.shape().dim_sizes().end());
  dims[0] = static_cast<int64_t>(idx.size());
  const TensorShape shape = *TensorShape::Build(dims);
  Tensor out = allocator != nullptr ? Tensor(allocator, t.dtype(), shape) : Tensor();
  if (!out.IsInitialized()) out = Tensor(t.dtype(), shape);  // no staging memory to spare
  const size_t row = t.dim_size(0) == 0 ? 0 : t.TotalBytes() / t.dim_size(0);
  const char* src = static_cast<const char*>(t.data());
  char* dst = static_cast<char*>(out.data());
  for (size_t i = 0; i < idx.size(); ++i) std::memcpy(dst + i * row, src + idx[i] * row, row);
  return out;
}
}  // namespace

Batch Dataset::Gather(const std::vector<int64_t>& idx, Allocator* allocator) const {
  Batch b;
  b.x = GatherRows(x_, idx, allocator);
  if (y_.IsInitialized()) b.y = GatherRows(y_, idx, allocator);
  b.size = static_cast<int64_t>(idx.size());
  return b;
}

BatchIterator::BatchIterator(const Dataset& data, int64_t batch_size, bool shuffle, uint64_t seed,
                             Allocator* allocator, DeviceBase* upload_to, Shard shard)
    : data_(data),
      allocator_(allocator),
      upload_to_(upload_to),
      shard_(shard.count >= 1 && shard.index >= 0 && shard.index < shard.count ? shard : Shard{}) {
  const int64_t per_rank = std::max<int64_t>(batch_size, 1);
  // The batch of all ranks together (per rank when it would overflow: one rank's data).
  batch_size_ = per_rank > INT64_MAX / shard_.count ? per_rank : per_rank * shard_.count;
  order_.resize(data.size());
  std::iota(order_.begin(), order_.end(), 0);
  if (shuffle) std::shuffle(order_.begin(), order_.end(), std::mt19937_64(seed));
  num_batches_ = data.size() / batch_size_;
  if (data.size() % batch_size_ >= shard_.count) ++num_batches_;  // a last, smaller batch
  worker_ = std::thread([this] { Work(); });
}

BatchIterator::~BatchIterator() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  worker_cv_.notify_all();
  worker_.join();
}

std::vector<int64_t> BatchIterator::Indices(int64_t b) const {
  const int64_t begin = b * batch_size_;
  const int64_t size = static_cast<int64_t>(order_.size());
  const int64_t end = batch_size_ >= size - begin ? size : begin + batch_size_;
  const int64_t per = (end - begin) / shard_.count;  // this rank's rows of the batch
  const int64_t first = begin + shard_.index * per;
  return std::vector<int64_t>(order_.begin() + first, order_.begin() + first + per);
}

void BatchIterator::Work() {
  for (int64_t b = 0; b < num_batches_; ++b) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (ready_.size() >= kAhead) {  // full: sleep until the steps have used half
        worker_waiting_ = true;
        worker_cv_.wait(lock, [&] { return stop_ || ready_.size() <= kAhead / 2; });
        worker_waiting_ = false;
      }
      if (stop_) return;
    }
    Batch batch = data_.Gather(Indices(b), allocator_);  // outside the lock: overlaps the step
    if (upload_to_ != nullptr) {  // before it is handed out, so the step finds the upload
      upload_to_->PrefetchFromHost(batch.x);
      if (batch.y.IsInitialized()) upload_to_->PrefetchFromHost(batch.y);
    }
    std::lock_guard<std::mutex> lock(mu_);
    ready_.push_back(std::move(batch));
    ++next_to_make_;
    if (consumer_waiting_) consumer_cv_.notify_one();
  }
}

std::optional<Batch> BatchIterator::Next() {
  std::unique_lock<std::mutex> lock(mu_);
  if (ready_.empty() && next_to_make_ < num_batches_) {
    consumer_waiting_ = true;
    consumer_cv_.wait(lock, [&] { return !ready_.empty() || next_to_make_ >= num_batches_; });
    consumer_waiting_ = false;
  }
  if (ready_.empty()) return std::nullopt;
  std::optional<Batch> out = std::move(ready_.front());
  ready_.pop_front();
  if (worker_waiting_ && ready_.size() <= kAhead / 2) worker_cv_.notify_one();
  return out;
}

}  // namespace rill::keras
