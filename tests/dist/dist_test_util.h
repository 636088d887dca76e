// What the multi-process tests share: every rank joins the job before any test runs.
#pragma once

#include "absl/strings/match.h"
#include "test_util.h"

// Asserts that a Status is OK, printing it otherwise.
#define RILL_ASSERT_OK(expr)                \
  do {                                      \
    const absl::Status rill_st_ = (expr);   \
    ASSERT_TRUE(rill_st_.ok()) << rill_st_; \
  } while (0)

namespace rill::testing {

class DistEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    absl::Status st = dist::Init();
    ASSERT_TRUE(st.ok()) << st;
  }
};

}  // namespace rill::testing
