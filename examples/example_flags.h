// Flag parsing shared by the example programs. `--help` (and -h, --helpfull, --helpshort,
// --help=...) prints what the program does and its flags and exits 0: a user asked for
// help and got it. (This Abseil's own handler exits 1, which scripts read as a failure.)
#pragma once

#include <vector>

namespace rill::examples {

// Sets the usage text, answers a help request, then parses the rest as
// absl::ParseCommandLine does (an unknown or malformed flag exits 1 with its message).
// Returns the positional arguments, argv[0] first.
std::vector<char*> ParseFlags(int argc, char** argv, const char* usage);

}  // namespace rill::examples
