#include "rill/runtime/io/trace.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "rill/runtime/file_util.h"
#include "rill/runtime/io/text_format.h"

namespace rill {
namespace {

std::string JsonString(absl::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (const char* e = text::SimpleEscape(c)) {
      out += e;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += absl::StrFormat("\\u%04x", static_cast<int>(c));
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

// Microseconds with nanosecond resolution, as the trace format wants.
std::string Us(int64_t ns) { return absl::StrFormat("%.3f", static_cast<double>(ns) / 1000.0); }

// Thread ids of the GPU stream tracks, above any host thread's.
constexpr int kStreamTrack = 1000;

}  // namespace

std::string ToChromeTrace(const StepStats& stats) {
  std::map<std::string, int> pid;  // device -> process id, in order of first use
  for (const NodeExecStats& n : stats.nodes) pid.try_emplace(n.device, 0);
  int next = 1;
  for (auto& [device, id] : pid) id = next++;

  std::vector<std::string> events;
  for (const auto& [device, id] : pid) {
    events.push_back(absl::StrCat("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":", id,
                                  ",\"tid\":0,\"args\":{\"name\":", JsonString(device), "}}"));
  }
  std::set<std::pair<int, int>> named_threads;
  std::map<int, int64_t> stream_free;  // per GPU process: when its stream is next idle
  for (const NodeExecStats& n : stats.nodes) {
    const int p = pid[n.device];
    if (named_threads.insert({p, n.thread}).second) {
      events.push_back(absl::StrCat(
          "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":", p, ",\"tid\":", n.thread,
          ",\"args\":{\"name\":",
          JsonString(n.thread == 0 ? "host: Run caller" : absl::StrCat("host: pool ", n.thread)),
          "}}"));
    }
    std::string args =
        absl::StrCat("{\"op\":", JsonString(n.op), ",\"output_bytes\":", n.output_bytes,
                     ",\"shapes\":", JsonString(absl::StrJoin(n.output_shapes, " ")));
    if (n.device_ns >= 0) absl::StrAppend(&args, ",\"device_us\":", Us(n.device_ns));
    if (!n.replaces.empty()) {
      absl::StrAppend(&args, ",\"replaces\":", JsonString(absl::StrJoin(n.replaces, " ")));
    }
    args += "}";
    const std::string name = JsonString(n.node_name);
    const char* cat = n.is_copy ? "copy" : "op";
    events.push_back(absl::StrCat(
        "{\"name\":", name, ",\"cat\":\"", cat, "\",\"ph\":\"X\",\"pid\":", p,
        ",\"tid\":", n.thread, ",\"ts\":", Us(n.start_ns),
        ",\"dur\":", Us(std::max<int64_t>(0, n.end_ns - n.start_ns)), ",\"args\":", args, "}"));
    if (n.device_ns >= 0) {
      auto [it, first] = stream_free.try_emplace(p, 0);
      if (first) {
        events.push_back(absl::StrCat("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":", p,
                                      ",\"tid\":", kStreamTrack,
                                      ",\"args\":{\"name\":\"device: stream\"}}"));
      }
      const int64_t start = std::max(it->second, n.start_ns);
      it->second = start + n.device_ns;
      events.push_back(absl::StrCat("{\"name\":", name, ",\"cat\":\"kernel\",\"ph\":\"X\",\"pid\":",
                                    p, ",\"tid\":", kStreamTrack, ",\"ts\":", Us(start),
                                    ",\"dur\":", Us(n.device_ns), ",\"args\":", args, "}"));
    }
  }
  return absl::StrCat("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"start_unix_us\":",
                      stats.start_unix_us, ",\"wall_us\":", Us(stats.wall_ns),
                      "},\"traceEvents\":[\n", absl::StrJoin(events, ",\n"), "\n]}\n");
}

absl::Status WriteChromeTrace(const StepStats& stats, const std::string& path) {
  return WriteFileAtomically(path, ToChromeTrace(stats), "trace file");
}

std::string SummarizeStepStats(const StepStats& stats, int top) {
  struct OpTotal {
    int count = 0;
    int64_t ns = 0;
  };
  std::map<std::string, std::map<std::string, OpTotal>> by_device;
  std::map<std::string, int64_t> device_ns;
  for (const NodeExecStats& n : stats.nodes) {
    // On a GPU, the kernels' device time; on the CPU, the node's host time.
    const int64_t ns = n.device_ns >= 0 ? n.device_ns : n.end_ns - n.start_ns;
    OpTotal& t = by_device[n.device][n.op];
    ++t.count;
    t.ns += ns;
    device_ns[n.device] += ns;
  }
  std::string out = absl::StrFormat("step: %.3f ms wall, %d nodes\n", stats.wall_ns / 1e6,
                                    static_cast<int>(stats.nodes.size()));
  for (const auto& [device, ops] : by_device) {
    const int64_t total = std::max<int64_t>(1, device_ns[device]);
    absl::StrAppend(&out, absl::StrFormat("%s: %.3f ms in nodes\n", device, total / 1e6));
    absl::StrAppend(&out, absl::StrFormat("  %-28s %6s %11s %11s %7s\n", "op", "count",
                                          "total (us)", "mean (us)", "share"));
    std::vector<std::pair<std::string, OpTotal>> sorted(ops.begin(), ops.end());
    std::sort(sorted.begin(), sorted.end(),
              [](const auto& a, const auto& b) { return a.second.ns > b.second.ns; });
    if (static_cast<int>(sorted.size()) > top) sorted.resize(top);
    for (const auto& [op, t] : sorted) {
      absl::StrAppend(
          &out, absl::StrFormat("  %-28s %6d %11.1f %11.1f %6.1f%%\n", op, t.count, t.ns / 1e3,
                                t.ns / 1e3 / t.count, 100.0 * t.ns / total));
    }
  }
  return out;
}

}  // namespace rill
