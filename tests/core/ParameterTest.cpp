#include <gtest/gtest.h>
#include <cstdint>
#include <functional>
#include <string>
#include <variant>

#include "sim/core/ConfigError.hpp"
#include "sim/core/Parameter.hpp"

using namespace fluxview;

namespace {
ParamSet sample() {
  return ParamSet({real_param("a.x", 1.0, "m", 0, 10, "a length", true),
                   int_param("a.n", 4, "", 1, 8, "a count"), bool_param("a.on", false, "a switch"),
                   choice_param("a.k", "hll", {"hll", "hllc"}, "a flux")});
}
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(ParamSet, DefaultsAndTypedAssignment) {
  ParamSet p = sample();
  EXPECT_EQ(p.get_real("a.x"), 1.0);
  p.assign_text("a.x", "2.5", "--set a.x");
  p.assign("a.n", std::int64_t(8), "file");
  p.assign("a.x", std::int64_t(3), "file");  // an integer is a fine real
  p.assign_text("a.on", "true", "--set");
  p.assign_text("a.k", "hllc", "--set");
  EXPECT_EQ(p.get_real("a.x"), 3.0);
  EXPECT_EQ(p.get_int("a.n"), 8);
  EXPECT_TRUE(p.get_bool("a.on"));
  EXPECT_EQ(p.get_string("a.k"), "hllc");
  EXPECT_TRUE(p.is_set("a.k"));
}

TEST(ParamSet, OutOfRangeNamesKeyValueAndRange) {
  ParamSet p = sample();
  const std::string m = error_of([&] { p.assign_text("a.n", "9", "--set a.n"); });
  EXPECT_NE(m.find("a.n = 9"), std::string::npos) << m;
  EXPECT_NE(m.find("[1, 8]"), std::string::npos) << m;
  EXPECT_NE(error_of([&] { p.assign_text("a.x", "0", "--set"); }).find("(0, 10]"),
            std::string::npos);
  EXPECT_EQ(p.get_int("a.n"), 4);  // nothing changed
}

TEST(ParamSet, WrongTypesAndUnknownKeysAreRefused) {
  ParamSet p = sample();
  EXPECT_NE(error_of([&] { p.assign_text("a.n", "2.5", "--set"); }).find("is not an integer"),
            std::string::npos);
  EXPECT_NE(error_of([&] { p.assign_text("a.x", "abc", "--set"); }).find("is not a number"),
            std::string::npos);
  EXPECT_NE(error_of([&] { p.assign_text("a.on", "maybe", "--set"); }).find("true or false"),
            std::string::npos);
  EXPECT_NE(error_of([&] { p.assign_text("a.k", "roe", "--set"); }).find("one of hll, hllc"),
            std::string::npos);
  EXPECT_NE(error_of([&] { p.assign("a.x", std::string("x"), "f"); }).find("wrong type"),
            std::string::npos);
  EXPECT_NE(error_of([&] { p.assign_text("a.xx", "1", "--set"); }).find("did you mean 'a.x'"),
            std::string::npos);
  EXPECT_NE(error_of([&] { p.assign_text("a.x", "nan", "--set"); }).find("finite"),
            std::string::npos);
}

TEST(ParamSet, HugeRealForAnIntegerIsOutOfRangeNotUndefined) {
  // Found by the fuzzer: 1e26 was converted to int64 before the range check.
  ParamSet p = sample();
  EXPECT_NE(error_of([&] { p.assign("a.n", 1e26, "file"); }).find("is out of range"),
            std::string::npos);
  EXPECT_NE(error_of([&] { p.assign("a.n", -1e300, "file"); }).find("is out of range"),
            std::string::npos);
  EXPECT_EQ(p.get_int("a.n"), 4);
}
