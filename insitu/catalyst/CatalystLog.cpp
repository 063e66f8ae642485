// The names of --catalyst-log, in every build (with or without ParaView).
#include <stdexcept>
#include <string>

#include "insitu/catalyst/CatalystAdaptor.hpp"

namespace fluxview {

const char* catalyst_log_name(CatalystLog log) {
  return log == CatalystLog::quiet ? "quiet" : log == CatalystLog::verbose ? "verbose" : "normal";
}

CatalystLog parse_catalyst_log(const std::string& name) {
  for (CatalystLog l : {CatalystLog::normal, CatalystLog::quiet, CatalystLog::verbose})
    if (name == catalyst_log_name(l)) return l;
  throw std::invalid_argument("Catalyst log " + name + ": expected normal, quiet or verbose");
}

}  // namespace fluxview
