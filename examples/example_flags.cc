#include "example_flags.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"

namespace rill::examples {
namespace {

bool IsHelpRequest(absl::string_view a) {
  return a == "-h" || a == "--help" || a == "-help" || a == "--helpfull" || a == "--helpshort" ||
         absl::StartsWith(a, "--help=");
}

// The program's own flags (not Abseil's), sorted by name: --name=default, then its help.
void PrintHelp(const char* argv0, const char* usage) {
  absl::string_view name = argv0;
  name = name.substr(name.find_last_of('/') + 1);
  std::printf("%.*s: %s\n", static_cast<int>(name.size()), name.data(), usage);
  std::vector<const absl::CommandLineFlag*> flags;
  for (const auto& [flag_name, flag] : absl::GetAllFlags()) {
    if (!absl::StrContains(flag->Filename(), "absl/")) flags.push_back(flag);
  }
  std::sort(flags.begin(), flags.end(),
            [](const auto* a, const auto* b) { return a->Name() < b->Name(); });
  if (!flags.empty()) std::printf("\nFlags:\n");
  for (const absl::CommandLineFlag* f : flags) {
    const std::string def = f->DefaultValue().empty() ? "\"\"" : f->DefaultValue();
    std::printf("  --%s=%s\n      %s\n", std::string(f->Name()).c_str(), def.c_str(),
                f->Help().c_str());
  }
}

}  // namespace

std::vector<char*> ParseFlags(int argc, char** argv, const char* usage) {
  absl::SetProgramUsageMessage(usage);
  for (int i = 1; i < argc; ++i) {
    const absl::string_view a = argv[i];
    if (a == "--") break;
    if (IsHelpRequest(a)) {
      PrintHelp(argv[0], usage);
      std::exit(0);
    }
  }
  return absl::ParseCommandLine(argc, argv);
}

}  // namespace rill::examples
