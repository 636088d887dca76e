// Loading a library when first needed (core/dso_loader.h): what cuBLAS and NCCL go through.
#include "rill/core/dso_loader.h"

#include <cstring>
#include <string>

#include "test_util.h"

namespace rill::testing {
namespace {
namespace dso_loader_test {

TEST(DsoLoader, FindsAFunctionOfALoadedLibrary) {
  absl::StatusOr<void*> lib = dso::Open("libc.so.6");
  ASSERT_TRUE(lib.ok()) << lib.status();
  decltype(&std::strlen) length = nullptr;
  ASSERT_TRUE(dso::Find(*lib, "libc.so.6", "strlen", &length).ok());
  ASSERT_NE(length, nullptr);
  EXPECT_EQ(length("rill"), 4u);
}

TEST(DsoLoader, AMissingLibraryOrSymbolIsAStatusNamingIt) {
  absl::StatusOr<void*> missing = dso::Open("librill_no_such_library.so.7");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(missing.status().message().find("librill_no_such_library.so.7 could not be loaded"),
            std::string::npos)
      << missing.status();

  absl::StatusOr<void*> lib = dso::Open("libc.so.6");
  ASSERT_TRUE(lib.ok()) << lib.status();
  void (*f)() = nullptr;
  absl::Status no_symbol = dso::Find(*lib, "libc.so.6", "rill_no_such_function", &f);
  EXPECT_EQ(no_symbol.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(no_symbol.message().find("libc.so.6 has no rill_no_such_function"), std::string::npos)
      << no_symbol;
  EXPECT_EQ(f, nullptr);
}

}  // namespace dso_loader_test
}  // namespace
}  // namespace rill::testing
