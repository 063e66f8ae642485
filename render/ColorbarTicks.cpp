#include "render/ColorbarTicks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace fluxview::render {

namespace {

// The smallest "round" step (1, 2, 2.5 or 5 times a power of ten) not below `raw`.
double nice_step(double raw) {
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * p >= raw * (1 - 1e-9)) return m * p;
  return 10 * p;
}

std::string printf_string(const char* format, int precision, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, precision, v);
  return buf;
}

// Decimals needed to tell the values apart and to write each exactly enough: the
// smallest gap between neighbours decides (a step of 2.5 needs one decimal, 0.25 two).
int decimals_for(const std::vector<double>& values) {
  double gap = 0;
  for (std::size_t i = 1; i < values.size(); ++i) {
    const double g = std::abs(values[i] - values[i - 1]);
    if (g > 0 && (gap == 0 || g < gap)) gap = g;
  }
  double ref = gap;
  if (ref == 0)
    for (double v : values) ref = std::max(ref, std::abs(v));
  if (ref == 0) return 0;
  int d = std::max(0, -int(std::floor(std::log10(ref) + 1e-9)));
  // One more where the gap itself has a second significant digit (2.5, 0.25).
  const double scaled = ref * std::pow(10.0, d);
  if (std::abs(scaled - std::round(scaled)) > 1e-6 * std::max(1.0, scaled)) ++d;
  return std::min(d, 12);
}

}  // namespace

std::vector<std::string> format_tick_labels(const std::vector<double>& values) {
  double big = 0, gap = 0;
  for (double v : values) big = std::max(big, std::abs(v));
  for (std::size_t i = 1; i < values.size(); ++i) {
    const double g = std::abs(values[i] - values[i - 1]);
    if (g > 0 && (gap == 0 || g < gap)) gap = g;
  }
  const double small = gap > 0 ? gap : big;
  const bool scientific = big >= 1e5 || (small > 0 && small < 1e-3);
  std::vector<std::string> out;
  if (!scientific) {
    const int d = decimals_for(values);
    for (double v : values) {
      std::string s = printf_string("%.*f", d, v);
      if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);  // -0.0
      out.push_back(s);
    }
    return out;
  }
  // Scientific: mantissa digits enough for the relative gap, the same for every label.
  int digits = 0;
  if (gap > 0 && big > 0) {
    const double rel = gap / std::pow(10.0, std::floor(std::log10(big)));
    digits = std::clamp(-int(std::floor(std::log10(rel) + 1e-9)), 0, 6);
    const double scaled = rel * std::pow(10.0, digits);
    if (std::abs(scaled - std::round(scaled)) > 1e-6 * std::max(1.0, scaled)) ++digits;
  }
  for (double v : values) {
    if (v == 0 || std::abs(v) < big * 1e-12) {
      out.push_back("0");
      continue;
    }
    const int e = int(std::floor(std::log10(std::abs(v)) + 1e-12));
    const double m = v / std::pow(10.0, e);
    out.push_back(printf_string("%.*f", digits, m) + "e" + std::to_string(e));
  }
  return out;
}

namespace {

// Log-scale ticks are 1, 2 or 5 times powers of ten: each written shortest ("0.002",
// "50"), or all as "2e-6" where the range leaves [0.001, 1e5).
std::vector<std::string> format_log_labels(const std::vector<double>& values) {
  bool plain = true;
  for (double v : values) plain = plain && v >= 1e-3 && v < 1e5;
  std::vector<std::string> out;
  for (double v : values) {
    char buf[32];
    if (plain) {
      std::snprintf(buf, sizeof buf, "%g", v);
    } else {
      const int e = int(std::floor(std::log10(v) + 1e-12));
      std::snprintf(buf, sizeof buf, "%ge%d", std::round(v / std::pow(10.0, e)), e);
    }
    out.push_back(buf);
  }
  return out;
}

}  // namespace

std::vector<ColorbarTick> colorbar_ticks(double lo, double hi, bool log_scale, int max_ticks) {
  std::vector<double> values;
  max_ticks = std::max(2, max_ticks);
  const auto place = [&](double v) {
    if (log_scale) return float((std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo)));
    return float((v - lo) / (hi - lo));
  };
  const double tol = 1e-9 * std::max(std::abs(lo), std::abs(hi));
  if (!(hi > lo)) {
    values = {lo};
  } else if (log_scale && lo > 0) {
    const int e0 = int(std::ceil(std::log10(lo) - 1e-9)),
              e1 = int(std::floor(std::log10(hi) + 1e-9));
    const int decades = e1 - e0 + 1;
    if (decades >= 2) {
      const int every = (decades + max_ticks - 1) / max_ticks;
      for (int e = e0; e <= e1; e += every) values.push_back(std::pow(10.0, e));
    } else {
      // Less than two powers of ten inside: 1-2-5 steps.
      for (int e = e0 - 1; e <= e1; ++e)
        for (const double m : {1.0, 2.0, 5.0}) {
          const double v = m * std::pow(10.0, e);
          if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) values.push_back(v);
        }
      while (int(values.size()) > max_ticks) {  // thin out, keeping the first
        std::vector<double> kept;
        for (std::size_t i = 0; i < values.size(); i += 2) kept.push_back(values[i]);
        values = kept;
      }
    }
  }
  const bool log_ticks = values.size() >= 2;  // the log rule found its ticks
  if (hi > lo && values.size() < 2) {         // linear, or a log range without round values inside
    values.clear();
    const double step = nice_step((hi - lo) / (max_ticks - 1));
    // A round value a hair outside the range (a field from 0.004 to 99.7) marks the
    // bar's end: within 1% of the range it is kept, drawn at the end.
    // The rounding tolerance never widens it by more than half a step: a nearly constant
    // field (20 to 20 + 1e-12) would otherwise get millions of ticks, and the view
    // would spend seconds a frame drawing their labels.
    const double slack = std::max(std::min(tol, 0.5 * step), 0.01 * (hi - lo));
    const double first = std::ceil((lo - slack) / step);
    // The count bound also ends the loop where k is too large for k + 1 to differ from k.
    for (double k = first; k * step <= hi + slack && int(values.size()) <= max_ticks; k += 1) {
      double v = k * step;
      if (std::abs(v) < step * 1e-9) v = 0;  // exactly 0, never 4.62e-19
      values.push_back(v);
    }
  }
  if (values.size() < 2 && hi > lo) values = {lo, hi};
  const auto labels = log_ticks ? format_log_labels(values) : format_tick_labels(values);
  std::vector<ColorbarTick> ticks;
  for (std::size_t i = 0; i < values.size(); ++i)
    ticks.push_back(
        {values[i], hi > lo ? std::clamp(place(values[i]), 0.0f, 1.0f) : 0.5f, labels[i]});
  return ticks;
}

}  // namespace fluxview::render
