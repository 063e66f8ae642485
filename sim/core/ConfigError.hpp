#pragma once
#include <stdexcept>
#include <string>

namespace fluxview {

// Bad input from a user (scenario, --set, CLI): the message is one line naming the
// key, the value and what is allowed, printed as is and followed by a non-zero exit.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace fluxview
