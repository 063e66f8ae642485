#include "sim/core/TomlText.hpp"

#include <algorithm>
#include <cstddef>

#include "sim/core/ConfigError.hpp"

namespace fluxview {

void refuse_non_ascii(std::string_view t, const std::string& origin, std::string_view what) {
  int line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '\n') {
      ++line;
      line_start = i + 1;
      continue;
    }
    if (static_cast<unsigned char>(t[i]) < 0x80) continue;
    const auto first = t.find_first_not_of(" \t", line_start);
    if (first != std::string_view::npos && first < i && t[first] == '#') {
      i = std::min(t.find('\n', i), t.size()) - 1;  // skip the rest of the comment
      continue;
    }
    throw ConfigError(origin + ":" + std::to_string(line) + ":" +
                      std::to_string(i - line_start + 1) + ": non-ASCII character; " +
                      std::string(what) + " are ASCII (but for whole-line # comments)");
  }
}

toml::table parse_toml_text(std::string_view text, const std::string& origin,
                            std::string_view what) {
  refuse_non_ascii(text, origin, what);
  try {
    return toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    throw ConfigError(origin + ":" + std::to_string(where.line) + ":" +
                      std::to_string(where.column) +
                      ": TOML syntax error: " + std::string(e.description()));
  }
}

}  // namespace fluxview
