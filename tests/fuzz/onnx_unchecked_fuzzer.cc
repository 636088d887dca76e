// libFuzzer target: the ONNX importer with ONNX's checker off (ImportOptions::check_model
// false), so that the converters meet the malformed models the checker would refuse: the
// same target as onnx_import_fuzzer.cc otherwise, on the same seeds.
#define RILL_ONNX_FUZZ_CHECK_MODEL false
#include "onnx_import_fuzzer.cc"
