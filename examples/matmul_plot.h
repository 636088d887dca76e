// Draws matmul_bench's CSV as the seeds' figure (median time against matrix size, one line
// per device and one per raw library, log scales) to PREFIX.png and PREFIX.svg with
// gnuplot. Returns false, having said why, when gnuplot is missing or fails.
#pragma once

#include <string>
#include <vector>

namespace rill::bench {

bool PlotMatmulCsv(const std::string& csv, const std::string& prefix,
                   const std::vector<std::string>& devices);

}  // namespace rill::bench
