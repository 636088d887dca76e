#include "matmul_plot.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace rill::bench {

std::string PlotPrefix(const std::string& csv, const std::string& plot) {
  if (!plot.empty()) return plot;
  return csv.size() > 4 && csv.ends_with(".csv") ? csv.substr(0, csv.size() - 4) : csv;
}

absl::StatusOr<std::vector<std::string>> CsvDevices(const std::string& csv) {
  std::ifstream f(csv);
  if (!f) return absl::NotFoundError(absl::StrCat(csv, ": cannot be read"));
  std::string line;
  if (!std::getline(f, line) || line != kMatmulCsvHeader) {
    return absl::InvalidArgumentError(
        absl::StrCat(csv, ":1: not matmul_bench's CSV (the header should be '", kMatmulCsvHeader,
                     "', it is '", line, "')"));
  }
  const size_t columns = std::vector<std::string>(absl::StrSplit(kMatmulCsvHeader, ',')).size();
  std::vector<std::string> devices;
  int rows = 0;
  for (int number = 2; std::getline(f, line); ++number) {
    if (line.empty()) continue;
    std::vector<std::string> fields = absl::StrSplit(line, ',');
    if (fields.size() != columns || (fields[0] != "cpu" && fields[0] != "gpu")) {
      return absl::InvalidArgumentError(absl::StrCat(csv, ":", number, ": expected ", columns,
                                                     " fields starting with cpu or gpu, got '",
                                                     line, "'"));
    }
    ++rows;
    if (std::find(devices.begin(), devices.end(), fields[0]) == devices.end())
      devices.push_back(fields[0]);
  }
  if (rows == 0) return absl::InvalidArgumentError(absl::StrCat(csv, ": no rows to draw"));
  return devices;
}

bool PlotMatmulCsv(const std::string& csv, const std::string& prefix,
                   const std::vector<std::string>& devices) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
    std::fprintf(stderr,
                 "matmul_bench: gnuplot not found; wrote %s only (install gnuplot-nox "
                 "for the figure)\n",
                 csv.c_str());
    return false;
  }
  const std::string script = prefix + ".gp";
  std::ofstream gp(script);
  gp << "set datafile separator ','\n"
        "set logscale x 2\nset logscale y 10\n"
        "set xlabel 'matrix size n (n x n float32)'\n"
        "set ylabel 'median time per multiply (ms)'\n"
        "set title 'rill MatMul graph against the raw library, by device'\n"
        "set key left top\nset grid\n";
  std::string plot = "plot ";
  const char* colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd"};
  for (size_t i = 0; i < devices.size(); ++i) {
    const std::string& d = devices[i];
    const char* color = colors[i % 4];
    if (i) plot += ", ";
    plot += "'" + csv + "' using 2:(strcol(1) eq '" + d +
            "' ? $4 : 1/0) with linespoints lw 2 lc '" + color + "' title '" + d + " (rill)', '" +
            csv + "' using 2:(strcol(1) eq '" + d + "' ? $8 : 1/0) with lines dt 2 lc '" + color +
            "' title '" + d + " (raw library)'";
  }
  gp << "set terminal pngcairo size 900,600\nset output '" << prefix << ".png'\n" << plot << "\n";
  gp << "set terminal svg size 900,600\nset output '" << prefix << ".svg'\n" << plot << "\n";
  gp.close();
  if (!gp || std::system(("gnuplot '" + script + "'").c_str()) != 0) {
    std::fprintf(stderr, "matmul_bench: gnuplot failed on %s\n", script.c_str());
    return false;
  }
  std::printf("figure: %s.png, %s.svg\n", prefix.c_str(), prefix.c_str());
  return true;
}

}  // namespace rill::bench
