#include <gtest/gtest.h>
TEST(MhdRiemann, Placeholder) {}
