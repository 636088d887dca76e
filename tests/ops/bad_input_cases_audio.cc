// Valid recipes and op-specific bad inputs of AudioSpectrogram (input not 2-D, window and
// stride out of range) and Mfcc (a spectrogram not 3-D, a sample rate that is not a
// positive scalar, limits out of order or above the spectrogram's highest frequency, more
// coefficients than filterbank channels, too few bins).
#include <cmath>

#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_audio {

using enum Where;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

void SpectrogramCases() {
  const char* op = "AudioSpectrogram";
  const AttrMap attrs = {{"window_size", int64_t{8}}, {"stride", int64_t{4}}};
  auto with = [&](const char* name, AttrValue v) {
    AttrMap a = attrs;
    a[name] = std::move(v);
    return Recipe(op, {F({16, 2})}, a);
  };
  AddRecipe({op, {F({16, 2})}, attrs});
  Both("a 1-D input", {op, {F({16})}, attrs}, {"2-D", "[16]"});
  Both("a 3-D input", {op, {F({16, 2, 1})}, attrs}, {"2-D", "[16,2,1]"});
  AddCase("a window of 1", with("window_size", int64_t{1}), kConstruction, kInvalid,
          {"window size must be > 1", "got 1"});
  AddCase("a negative window", with("window_size", int64_t{-8}), kConstruction, kInvalid,
          {"window size", "got -8"});
  AddCase("a window past int32", with("window_size", int64_t{1} << 31), kConstruction, kInvalid,
          {"int32", "2147483648"});
  AddCase("a stride of 0", with("stride", int64_t{0}), kConstruction, kInvalid,
          {"stride must be strictly positive", "got 0"});
  AddCase("a stride of -2^40", with("stride", -(int64_t{1} << 40)), kConstruction, kInvalid,
          {"stride", "-1099511627776"});
}

void MfccCases() {
  const char* op = "Mfcc";
  const AttrMap attrs = {{"filterbank_channel_count", int64_t{4}},
                         {"dct_coefficient_count", int64_t{3}}};
  auto with = [&](const char* name, AttrValue v) {
    AttrMap a = attrs;
    a[name] = std::move(v);
    return Recipe(op, {F({1, 2, 9}), I({}, {16000})}, a);
  };
  auto rate = [&](int32_t r, int64_t bins = 9) {
    return Recipe(op, {F({1, 2, bins}), I({}, {r})}, attrs);
  };
  AddRecipe({op, {F({1, 2, 9}), I({}, {16000})}, attrs});
  Both("a 2-D spectrogram", {op, {F({2, 9}), I({}, {16000})}, attrs}, {"3-D", "[2,9]"});
  Both("a vector sample rate", {op, {F({1, 2, 9}), I({1}, {16000})}, attrs},
       {"sample_rate", "scalar", "[1]"});
  AddCase("a sample rate of 0", rate(0), kRun, kInvalid, {"sample_rate must be positive"});
  AddCase("a negative sample rate", rate(-16000), kRun, kInvalid, {"got -16000"});
  AddCase("an upper limit above half the sample rate", rate(4000), kRun, kInvalid,
          {"upper_frequency_limit 4000", "2000 Hz"});
  AddCase("one bin", rate(16000, 1), kRun, kInvalid, {"at least 2 bins", "got 1"});
  AddCase("more coefficients than channels", with("dct_coefficient_count", int64_t{5}),
          kConstruction, kInvalid, {"dct_coefficient_count", "4", "got 5"});
  AddCase("no filterbank channels", with("filterbank_channel_count", int64_t{0}), kConstruction,
          kInvalid, {"filterbank_channel_count", "got 0"});
  AddCase("a negative lower limit", with("lower_frequency_limit", -1.0f), kConstruction, kInvalid,
          {"lower_frequency_limit", "-1"});
  AddCase("an upper limit below the lower", with("upper_frequency_limit", 10.0f), kConstruction,
          kInvalid, {"upper_frequency_limit (10)", "(20)"});
  AddCase("a NaN upper limit", with("upper_frequency_limit", std::nanf("")), kConstruction,
          kInvalid, {"upper_frequency_limit", "nan"});
}

const bool kRegistered = [] {
  SpectrogramCases();
  MfccCases();
  return true;
}();

}  // namespace bad_input_cases_audio
}  // namespace
}  // namespace rill::testing
