#include "sim/core/Journal.hpp"

#include <toml++/toml.h>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <type_traits>
#include <utility>
#include <variant>

#include "sim/core/ConfigError.hpp"
#include "sim/core/SolverFamily.hpp"
#include "sim/core/TomlText.hpp"

namespace fluxview {

namespace {

// A value as the journal writes it: numbers exactly, strings bare when they are one word
// (choices are), quoted otherwise.
std::string value_text(const ParamValue& v) {
  if (const auto* d = std::get_if<double>(&v)) {
    std::string s = exact_number(*d);
    // Keep a real a real when read back ("2" would read as an integer; both are accepted
    // by a real key, but the text then says what the value is).
    if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
    return s;
  }
  if (const auto* s = std::get_if<std::string>(&v)) {
    const bool word = !s->empty() && std::all_of(s->begin(), s->end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    });
    return word ? *s : "\"" + *s + "\"";
  }
  return format_value(v);
}

// A number from the line form: an integer when it is one, else a double; a word stays text.
ParamValue parse_value_text(const std::string& t) {
  if (t.size() >= 2 && t.front() == '"' && t.back() == '"') return t.substr(1, t.size() - 2);
  if (t == "true") return true;
  if (t == "false") return false;
  char* end = nullptr;
  const long long i = std::strtoll(t.c_str(), &end, 10);
  if (!t.empty() && end == t.c_str() + t.size()) return std::int64_t(i);
  const double d = std::strtod(t.c_str(), &end);
  if (!t.empty() && end == t.c_str() + t.size()) return d;
  return t;
}

std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> w;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i >= line.size()) break;
    std::size_t j = i;
    if (line[i] == '"') {
      j = line.find('"', i + 1);
      j = j == std::string::npos ? line.size() : j + 1;
    } else if (line[i] == '=') {
      j = i + 1;
    } else {
      while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j])) &&
             line[j] != '=')
        ++j;
    }
    w.push_back(line.substr(i, j - i));
    i = j;
  }
  return w;
}

}  // namespace

std::string journal_line(const JournalEntry& e) {
  std::string s =
      e.at_time() ? "at time " + exact_number(e.time) : "at step " + std::to_string(e.step);
  if (e.kind == JournalEntry::Kind::set) return s + " set " + e.key + " = " + value_text(e.value);
  s += " apply " + e.tool.tool;
  for (const auto& [name, v] : e.tool.args) s += " " + name + " = " + value_text(v);
  return s;
}

std::string Journal::to_lines() const {
  std::string out;
  for (const JournalEntry& e : entries) {
    out += journal_line(e);
    if (!e.note.empty()) out += "  # " + e.note;
    out += "\n";
  }
  return out;
}

std::string Journal::to_toml() const {
  std::ostringstream o;
  for (const JournalEntry& e : entries) {
    o << "[[at]]\n";
    if (e.at_time())
      o << "time = " << value_text(e.time) << "\n";
    else
      o << "step = " << e.step << "\n";
    if (e.kind == JournalEntry::Kind::set) {
      const std::string v = value_text(e.value);
      const bool text = std::holds_alternative<std::string>(e.value);
      o << "set = { \"" << e.key << "\" = " << (text && v.front() != '"' ? "\"" + v + "\"" : v)
        << " }\n";
    } else {
      o << "tool = \"" << e.tool.tool << "\"\n";
      for (const auto& [name, v] : e.tool.args) o << name << " = " << value_text(v) << "\n";
    }
    if (!e.note.empty()) o << "# " << e.note << "\n";
    o << "\n";
  }
  return o.str();
}

Journal parse_journal_lines(std::string_view text, const std::string& origin) {
  refuse_non_ascii(text, origin, "steering files");
  Journal j;
  std::istringstream in{std::string(text)};
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string where = origin + ":" + std::to_string(number);
    // A '#' outside quotes starts a comment.
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '"') quoted = !quoted;
      if (line[i] == '#' && !quoted) {
        line.resize(i);
        break;
      }
    }
    const std::vector<std::string> w = words_of(line);
    if (w.empty()) continue;
    const std::string expected =
        "; expected 'at step N set KEY = VALUE' or 'at step N apply TOOL NAME = VALUE ...' "
        "(or 'at time T ...')";
    if (w.size() < 4 || w[0] != "at" || (w[1] != "step" && w[1] != "time"))
      throw ConfigError(where + ": '" + line + "'" + expected);
    JournalEntry e;
    const ParamValue when = parse_value_text(w[2]);
    if (w[1] == "step") {
      const auto* s = std::get_if<std::int64_t>(&when);
      if (!s || *s < 0)
        throw ConfigError(where + ": step '" + w[2] + "' is not a step; allowed: an integer >= 0");
      e.step = *s;
    } else {
      const double t = std::holds_alternative<std::int64_t>(when)
                           ? double(std::get<std::int64_t>(when))
                       : std::holds_alternative<double>(when) ? std::get<double>(when)
                                                              : -1;
      if (!(t >= 0) || !std::isfinite(t))
        throw ConfigError(where + ": time '" + w[2] + "' is not a time; allowed: a number >= 0");
      e.time = t;
    }
    if (w[3] == "set") {
      if (w.size() != 7 || w[5] != "=")
        throw ConfigError(where + ": '" + line + "'; expected 'set KEY = VALUE'");
      e.kind = JournalEntry::Kind::set;
      e.key = w[4];
      e.value = parse_value_text(w[6]);
    } else if (w[3] == "apply") {
      if (w.size() < 5 || (w.size() - 5) % 3 != 0)
        throw ConfigError(where + ": '" + line + "'; expected 'apply TOOL NAME = VALUE ...'");
      e.kind = JournalEntry::Kind::tool;
      e.tool.tool = w[4];
      for (std::size_t a = 5; a < w.size(); a += 3) {
        const ParamValue v = parse_value_text(w[a + 2]);
        if (w[a + 1] != "=" || std::holds_alternative<std::string>(v) ||
            std::holds_alternative<bool>(v))
          throw ConfigError(where + ": tool " + e.tool.tool + ": '" + w[a] + " " + w[a + 1] + " " +
                            w[a + 2] + "' is not NAME = NUMBER");
        e.tool.args[w[a]] = std::holds_alternative<double>(v) ? std::get<double>(v)
                                                              : double(std::get<std::int64_t>(v));
      }
    } else {
      throw ConfigError(where + ": '" + w[3] + "' is neither set nor apply" + expected);
    }
    j.entries.push_back(std::move(e));
  }
  return j;
}

Journal parse_journal_toml(std::string_view toml_text, const std::string& origin) {
  const toml::table root = parse_toml_text(toml_text, origin, "steering files");
  Journal j;
  const toml::node* at = root.get("at");
  if (!at) return j;
  const toml::array* tables = at->as_array();
  if (!tables || !tables->is_array_of_tables())
    throw ConfigError(origin + ": 'at' must be an array of tables ([[at]] ... )");
  int index = 0;
  for (const toml::node& node : *tables) {
    ++index;
    const toml::table& t = *node.as_table();
    const std::string where = origin + ": [[at]] number " + std::to_string(index) + " (line " +
                              std::to_string(t.source().begin.line) + ")";
    JournalEntry e;
    const toml::node* step = t.get("step");
    const toml::node* time = t.get("time");
    if ((step != nullptr) == (time != nullptr))
      throw ConfigError(where + ": give exactly one of step = N or time = T");
    if (step) {
      const auto s = step->value_exact<std::int64_t>();
      if (!s || *s < 0) throw ConfigError(where + ": step must be an integer >= 0");
      e.step = *s;
    } else {
      const auto tv = time->value<double>();  // an integer time reads as a double too
      if (!tv || !(*tv >= 0) || !std::isfinite(*tv))
        throw ConfigError(where + ": time must be a number >= 0");
      e.time = *tv;
    }
    const toml::node* set = t.get("set");
    const toml::node* tool = t.get("tool");
    if ((set != nullptr) == (tool != nullptr))
      throw ConfigError(where +
                        ": give exactly one of set = { \"key\" = value } or tool = \"name\"");
    if (set) {
      const toml::table* keys = set->as_table();
      if (!keys || keys->empty())
        throw ConfigError(where +
                          ": set must be a table of keys and values, e.g. set = { "
                          "\"fv.cfl\" = 0.3 }");
      for (const auto& [k, v] : *keys) {
        JournalEntry s = e;
        s.kind = JournalEntry::Kind::set;
        s.key = std::string(k.str());
        if (auto x = v.value_exact<std::int64_t>())
          s.value = *x;
        else if (auto d = v.value_exact<double>())
          s.value = *d;
        else if (auto b = v.value_exact<bool>())
          s.value = *b;
        else if (auto str = v.value_exact<std::string>())
          s.value = *str;
        else
          throw ConfigError(where + ": set " + s.key + ": a value is a number, boolean or string");
        if (t.size() != 2)
          throw ConfigError(where + ": an entry that sets keys has only step (or time) and set");
        j.entries.push_back(std::move(s));
      }
      continue;
    }
    const auto name = tool->value_exact<std::string>();
    if (!name) throw ConfigError(where + ": tool must be a name in quotes, e.g. tool = \"blast\"");
    e.kind = JournalEntry::Kind::tool;
    e.tool.tool = *name;
    for (const auto& [k, v] : t) {
      const std::string key(k.str());
      if (key == "step" || key == "time" || key == "tool") continue;
      const auto d = v.value<double>();  // integers read as doubles too
      if (!d || v.is_boolean())
        throw ConfigError(where + ": tool " + *name + ": argument " + key + " must be a number");
      e.tool.args[key] = *d;
    }
    j.entries.push_back(std::move(e));
  }
  for (const auto& [k, node] : root)
    if (k.str() != "at" && !node.is_table())
      throw ConfigError(origin + ": unknown key '" + std::string(k.str()) +
                        "'; a steering file holds [[at]] tables");
  return j;
}

Journal parse_journal(std::string_view text, const std::string& origin) {
  // The TOML form has [[at]] tables; the line form never has a '[' outside a comment.
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    const auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line[first] == '[') return parse_journal_toml(text, origin);
  }
  return parse_journal_lines(text, origin);
}

Journal read_journal_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError("cannot read steering file '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  return parse_journal(text.str(), path);
}

Journal check_journal(const Journal& j, const ParamSet& params, const SolverFamily& family,
                      const std::vector<ToolSpec>& tools, const std::string& origin) {
  Journal out = j;
  ParamSet p = params;
  std::int64_t last_step = 0;
  for (std::size_t n = 0; n < out.entries.size(); ++n) {
    JournalEntry& e = out.entries[n];
    const std::string where =
        origin + ": entry " + std::to_string(n + 1) + " (" + journal_line(e) + ")";
    if (!e.at_time()) {
      if (e.step < last_step)
        throw ConfigError(where + ": step " + std::to_string(e.step) +
                          " comes after an entry at step " + std::to_string(last_step) +
                          "; allowed: entries in the order of their steps");
      last_step = e.step;
    }
    if (e.kind == JournalEntry::Kind::set) {
      try {
        p = live_change(p, e.key, e.value, family.validate);
      } catch (const SteeringError& err) {
        throw ConfigError(where + ": " + err.what());
      }
    } else {
      e.tool = resolve_tool_call(tools, e.tool, where);
    }
  }
  return out;
}

}  // namespace fluxview
