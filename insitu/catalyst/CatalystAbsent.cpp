// The Catalyst adaptor of a build without ParaView: --catalyst is refused with a message
// that says why and what to install, before anything runs.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "insitu/catalyst/CatalystAdaptor.hpp"

namespace fluxview {

struct CatalystAdaptor::Impl {
  std::vector<CatalystScriptStatus> status;
  CatalystStats stats;
};

bool CatalystAdaptor::available() {
  return false;
}

CatalystAdaptor::CatalystAdaptor(CatalystOptions) {
  throw CatalystError(
      "this build of fluxview has no ParaView Catalyst: ParaView 5.11 (Debian: paraview-dev, "
      "python3-paraview) was not found at configure time, or FLUXVIEW_WITH_CATALYST=OFF; "
      "reconfigure with ParaView installed to use --catalyst");
}
CatalystAdaptor::~CatalystAdaptor() = default;
void CatalystAdaptor::execute(const Solver&, bool) {}
void CatalystAdaptor::add_script(const std::string&) {
  throw CatalystError("this build has no Catalyst");
}
void CatalystAdaptor::set_enabled(std::size_t, bool) {}
const std::vector<CatalystScriptStatus>& CatalystAdaptor::status() const {
  return impl_->status;
}
const CatalystStats& CatalystAdaptor::stats() const {
  return impl_->stats;
}
nlohmann::json CatalystAdaptor::summary_json() const {
  return nlohmann::json::object();
}

}  // namespace fluxview
