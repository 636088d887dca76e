#include "rill/core/fractional_pool.h"

#include <algorithm>
#include <cmath>

#include "rill/core/philox.h"
#include "rill/core/status.h"

namespace rill {

double PhiloxDraws::Uniform() {
  const random::Block b = random::Philox(key_, stream_, block_++);
  return random::ToDouble(b[0], b[1]);
}

uint64_t PhiloxDraws::Below(uint64_t n) {
  const random::Block b = random::Philox(key_, stream_, block_++);
  return ((uint64_t{b[0]} << 32) | b[1]) % n;  // n is a sequence length: the bias is < 2^-32
}

absl::Status CheckPoolingRatio(float ratio, const char* what) {
  if (!(ratio >= 1.0f) || std::isinf(ratio)) {
    return errors::InvalidArgument("pooling_ratio must be finite and >= 1 for the ", what, ", got ",
                                   ratio);
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> FractionalOutputSize(int64_t in, float ratio, const char* what) {
  RILL_RETURN_IF_ERROR(CheckPoolingRatio(ratio, what));
  // The float quotient can round above `in` for huge sizes; no dimension grows.
  const int64_t out =
      std::min(in, static_cast<int64_t>(std::floor(static_cast<float>(in) / ratio)));
  if (out == 0 && in > 0) {
    return errors::InvalidArgument("pooling_ratio ", ratio, " is larger than the input's ", what,
                                   " (", in, "): no region to pool");
  }
  return out;
}

namespace {

// Graham's pseudo-random boundaries; empty when rounding took a region outside [k, k + 1].
std::vector<int64_t> PseudoRandomSequence(int64_t in, int64_t out, PhiloxDraws& draws) {
  const double alpha = static_cast<double>(in) / static_cast<double>(out);
  const int64_t k = in / out;
  // The first region, ceil(alpha * (1 + u)) rows, is at most k + 1 rows long, and the
  // last, in + 1 - ceil(alpha * (out - 1 + u)), at least k: u below both bounds. The
  // regions between are floor(alpha) or ceil(alpha) = k or k + 1 rows whatever u is.
  const double max_u = std::min(static_cast<double>(k + 2) / alpha - 1,
                                static_cast<double>(in + 1 - k) / alpha - (out - 1));
  const double u = draws.Uniform() * max_u;
  std::vector<int64_t> seq(out + 1);
  seq[0] = 0;
  seq[out] = in;
  for (int64_t i = 1; i < out; ++i) {
    seq[i] = static_cast<int64_t>(std::ceil(alpha * (static_cast<double>(i) + u))) - 1;
  }
  for (int64_t i = 0; i < out; ++i) {
    const int64_t len = seq[i + 1] - seq[i];
    if (len != k && len != k + 1) return {};
  }
  return seq;
}

}  // namespace

std::vector<int64_t> FractionalPoolingSequence(int64_t in, int64_t out, bool pseudo_random,
                                               PhiloxDraws& draws) {
  if (out == 0) return {0};  // an empty dimension (in is 0 too): no region, one boundary
  const int64_t k = in / out, longer = in % out;
  if (longer != 0 && pseudo_random) {
    std::vector<int64_t> seq = PseudoRandomSequence(in, out, draws);
    if (!seq.empty()) return seq;
  }
  // Region lengths: `longer` of k + 1 rows, shuffled (Fisher-Yates) among the rest.
  std::vector<int64_t> lengths(out, k);
  std::fill(lengths.begin(), lengths.begin() + longer, k + 1);
  if (longer != 0) {
    for (int64_t i = out - 1; i > 0; --i) {
      std::swap(lengths[i], lengths[draws.Below(static_cast<uint64_t>(i) + 1)]);
    }
  }
  std::vector<int64_t> seq(out + 1, 0);
  for (int64_t i = 0; i < out; ++i) seq[i + 1] = seq[i] + lengths[i];
  return seq;
}

absl::Status CheckPoolingSequence(const Tensor& seq, int64_t in, int64_t out, const char* what) {
  if (seq.dims() != 1 || seq.dim_size(0) != out + 1) {
    return errors::InvalidArgument(what, " must be a vector of ", out + 1,
                                   " boundaries (one more than the output's regions), got shape ",
                                   seq.shape().DebugString());
  }
  const int64_t* v = seq.flat<int64_t>().data();
  if (v[0] < 0 || v[out] > in) {
    return errors::InvalidArgument(what, " must run from >= 0 to <= ", in,
                                   " (the input's size), got ", v[0], " to ", v[out]);
  }
  for (int64_t i = 0; i < out; ++i) {
    if (v[i + 1] <= v[i]) {
      return errors::InvalidArgument(what, " must be strictly increasing, got ", v[i], " then ",
                                     v[i + 1], " at ", i);
    }
  }
  return absl::OkStatus();
}

}  // namespace rill
