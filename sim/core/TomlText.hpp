// TOML text as fluxview reads it: scenario files (Scenario.cpp) and steering files
// (Journal.cpp) go through the same two checks, so both refuse the same input with the
// same kind of message.
#pragma once

#include <toml++/toml.h>

#include <string>
#include <string_view>

namespace fluxview {

// Refuses a non-ASCII character outside whole-line # comments, naming origin:line:column.
// Why: Debian's toml++ 3.3 reaches an "unreachable" branch (undefined behaviour) on some
// non-ASCII input in malformed values (found by tests/fuzz), and where a string or comment
// begins inside malformed text cannot be known before parsing; refusing non-ASCII outside
// full-line comments is the rule that is safe for every input. `what` names the files in
// the message ("scenario files", "steering files").
void refuse_non_ascii(std::string_view text, const std::string& origin, std::string_view what);

// refuse_non_ascii, then parses; a syntax error becomes a ConfigError
// "origin:line:column: TOML syntax error: ...".
toml::table parse_toml_text(std::string_view text, const std::string& origin,
                            std::string_view what);

}  // namespace fluxview
