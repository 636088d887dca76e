// Draws matmul_bench's CSV as the seeds' figure (median time against matrix size, one line
// per device and one per raw library, log scales) to PREFIX.png and PREFIX.svg with
// gnuplot. Returns false, having said why, when gnuplot is missing or fails.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace rill::bench {

// The first line of matmul_bench's CSV.
inline constexpr char kMatmulCsvHeader[] =
    "device,n,first_run_ms,median_ms,min_ms,max_ms,gflops,raw_median_ms,ratio_vs_raw,verified";

// The figure's file prefix: PLOT when given, else the CSV's name without ".csv".
std::string PlotPrefix(const std::string& csv, const std::string& plot);

// The devices of a CSV that matmul_bench wrote, in the order of their first row. A file
// that cannot be read, has another header, no rows, a row of another width or a device
// other than cpu/gpu is an error naming the file and line.
absl::StatusOr<std::vector<std::string>> CsvDevices(const std::string& csv);

bool PlotMatmulCsv(const std::string& csv, const std::string& prefix,
                   const std::vector<std::string>& devices);

}  // namespace rill::bench
