#pragma once
#include <string>

#include "app/RunOptions.hpp"

namespace fluxview::app {

int list_command(bool with_params, const std::string& scenario);
int run_command(const RunOptions& o);
int bench_command(const RunOptions& o);

}  // namespace fluxview::app
