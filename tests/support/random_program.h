// Random programs over the op registry, for the random-graph test and the libFuzzer
// targets: a few placeholders, then nodes of random ops with random inputs, attributes and
// shapes, every node then run on its own with the placeholders fed. The choices come from
// a `Choices`: a seeded generator in the unit test, the fuzzer's bytes in libFuzzer.
// No GoogleTest here: what would be a bug comes back as a non-OK Status.
#pragma once

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "rill/rill.h"

namespace rill::testing {

class Choices {
 public:
  virtual ~Choices() = default;
  virtual int Int(int lo, int hi) = 0;  // in [lo, hi]
  bool Coin() { return Int(0, 1) == 1; }
  // Dtypes drawn from every one rill computes with, the narrow and unsigned integers too;
  // false: float, double, int32, int64, uint8 and bool, which most ops take (more nodes get
  // built from a given number of choices).
  bool every_dtype = false;
};

class SeededChoices final : public Choices {
 public:
  explicit SeededChoices(uint32_t seed) : rng_(seed) {}
  int Int(int lo, int hi) override { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

 private:
  std::mt19937 rng_;
};

// Reads choices from bytes (little-endian, as many as the range needs); once they run out
// every choice is `lo`, so any byte string is a complete program.
class ByteChoices final : public Choices {
 public:
  explicit ByteChoices(absl::Span<const uint8_t> bytes) : bytes_(bytes) {}
  int Int(int lo, int hi) override;
  bool exhausted() const { return pos_ >= bytes_.size(); }

 private:
  absl::Span<const uint8_t> bytes_;
  size_t pos_ = 0;
};

// A tensor of `dt` and `dims` with values from `c` (integers in -3..5, floats in halves;
// with `wild`, also NaN, infinities, extremes of the type).
Tensor ChosenTensor(Choices& c, DataType dt, const std::vector<int64_t>& dims, bool wild);

struct RandomProgram {
  std::vector<std::pair<Node*, Tensor>> feeds;  // placeholder -> its value for every run
  int refused = 0;                              // nodes refused at construction
};

// Adds 1-3 placeholders and `nodes` random nodes to `g`. A refusal is counted; a refusal
// without a message, or a placeholder that cannot be added, is returned as an error.
absl::Status BuildRandomProgram(Choices& c, int nodes, bool wild, Graph* g, RandomProgram* out);

struct RunCounts {
  int built = 0, ran = 0, failed = 0;
  std::set<std::string> ops_ran;
};

// Runs every node of `root` (other than placeholders) on its own in `session`. An OK run
// must give outputs of the inferred dtype and a compatible shape (the shape is not checked
// when an Assign with validate_shape=false may have reshaped a variable); a failed one a Status
// with a message, never Internal. The first violation is returned.
absl::Status RunEveryNode(Session& session, const Scope& root, const RandomProgram& program,
                          RunCounts* counts);

}  // namespace rill::testing
