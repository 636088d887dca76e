#include "rill/runtime/keras/progress.h"

#include <cmath>
#include <cstdio>

namespace rill::keras {

ProgressBar::ProgressBar(std::ostream* out, int64_t steps, bool live)
    : out_(out), steps_(steps), live_(live), start_(std::chrono::steady_clock::now()) {}

double ProgressBar::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::string FormatTiming(double seconds, int64_t steps) {
  char buf[64];
  const double per = steps > 0 ? seconds / static_cast<double>(steps) : 0;
  if (per >= 1) {
    std::snprintf(buf, sizeof buf, "%.0fs %.0fs/step", std::floor(seconds), per);
  } else if (per >= 1e-3) {
    std::snprintf(buf, sizeof buf, "%.0fs %.0fms/step", std::floor(seconds), per * 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.0fs %.0fus/step", std::floor(seconds), per * 1e6);
  }
  return buf;
}

std::string ProgressBar::Line(int64_t step, const Metrics& values, bool final) const {
  const int width = 30;
  std::string bar(width, '.');
  const int done = steps_ > 0 ? static_cast<int>(width * step / steps_) : width;
  for (int i = 0; i < done; ++i) bar[i] = '=';
  if (!final && done < width && done > 0) bar[done - 1] = '>';
  const std::string digits = std::to_string(steps_);
  std::string count = std::to_string(step);
  count = std::string(digits.size() - std::min(digits.size(), count.size()), ' ') + count;
  std::string line = count + "/" + digits + " [" + bar + "] - ";
  if (final) {
    line += FormatTiming(seconds(), steps_);
  } else {
    const double eta =
        step > 0 ? seconds() / static_cast<double>(step) * static_cast<double>(steps_ - step) : 0;
    line += "ETA: " + std::to_string(static_cast<int64_t>(std::ceil(eta))) + "s";
  }
  for (const auto& [name, v] : values) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " - %s: %.4f", name.c_str(), v);
    line += buf;
  }
  return line;
}

bool ProgressBar::WillDraw(int64_t step) const {
  if (!live_ || out_ == nullptr) return false;
  return step >= steps_ ||
         std::chrono::steady_clock::now() - last_draw_ >= std::chrono::milliseconds(50);
}

void ProgressBar::Update(int64_t step, const Metrics& values) {
  if (!WillDraw(step)) return;
  last_draw_ = std::chrono::steady_clock::now();
  *out_ << "\r" << Line(step, values, false) << std::flush;
}

void ProgressBar::Finish(const Metrics& values) {
  if (out_ == nullptr) return;
  if (live_) *out_ << "\r\033[K";
  *out_ << Line(steps_, values, true) << "\n" << std::flush;
}

}  // namespace rill::keras
