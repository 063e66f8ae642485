#include <gtest/gtest.h>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "insitu/snapshot/VtiWriter.hpp"

using namespace fluxview;

TEST(VtiWriter, WritesHeaderAndAppendedRawBinaryThatReadsBack) {
  Grid g;
  g.n = {3, 2, 1};
  g.spacing = {0.5, 0.5, 1};
  g.centering = Centering::cell;
  g.origin = {0.25, 0.25, 0.5};
  HostArray a;
  a.precision = Precision::f64;
  a.n = g.n;
  std::vector<double> vals = {1, 2, 3, 4, 5, 6};
  a.bytes.resize(vals.size() * 8);
  std::memcpy(a.bytes.data(), vals.data(), a.bytes.size());
  const auto path = std::filesystem::temp_directory_path() / "fluxview_vti_test.vti";
  write_vti(path, g, 0.75, {{"rho", a}});
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string s = ss.str();
  EXPECT_NE(s.find("WholeExtent=\"0 3 0 2 0 1\""), std::string::npos);
  EXPECT_NE(s.find("Origin=\"0 0 0\""), std::string::npos);
  EXPECT_NE(s.find("<CellData Scalars=\"rho\">"), std::string::npos);
  EXPECT_NE(s.find(">0.75</DataArray>"), std::string::npos);
  const auto us = s.find('_', s.find("<AppendedData"));
  std::uint64_t nbytes = 0;
  std::memcpy(&nbytes, s.data() + us + 1, 8);
  ASSERT_EQ(nbytes, 48u);
  double back[6];
  std::memcpy(back, s.data() + us + 9, 48);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(back[i], vals[i]);
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp-" + std::to_string(::getpid())));
  std::filesystem::remove(path);
}
